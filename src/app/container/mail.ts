import type { Mailer } from '../../core/mail/mailer.ts';
import { SmtpMailer } from '../../adapters/mail/smtp-mailer.ts';
import { LogMailer } from '../../adapters/mail/log-mailer.ts';
import type { Config } from '../config.ts';

export interface Mail {
  /** The connection SMTP_URL opened, closed with the container; null when none (or a test's mailer). */
  smtp: SmtpMailer | null;
  /** A real mail server (or the tests' stand-in): invitations are mailed only then. */
  server: Mailer | null;
  /** Where resets and verifications go: the server, else the log (an operator copies the link). */
  mailer: Mailer;
}

/** SMTP_URL's mail server, a test's mailer instead, or the log. */
export function mailOf(config: Config, override: Mailer | undefined): Mail {
  const smtp = override || config.SMTP_URL === null ? null : new SmtpMailer(config.SMTP_URL, config.MAIL_FROM);
  const server = override ?? smtp;
  return { smtp, server, mailer: server ?? new LogMailer((line) => console.warn(`linkpix: ${line}`)) };
}
