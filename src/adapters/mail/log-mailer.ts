import type { MailMessage, Mailer } from '../../core/mail/mailer.ts';

/**
 * No mail server (SMTP_URL unset): each message is told as not sent, by its recipient and
 * subject only. Its body may hold a secret (a reset link), and logs are read by many; the
 * operator makes a reset link with `linkpix users reset-link EMAIL` instead.
 */
export class LogMailer implements Mailer {
  constructor(private readonly log: (line: string) => void) {}

  async send(message: MailMessage): Promise<void> {
    this.log(`mail not sent (SMTP_URL is not set): "${message.subject}" to ${message.to}`);
  }
}
