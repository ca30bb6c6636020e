import { createTransport, type Transporter } from 'nodemailer';
import type { MailMessage, Mailer } from '../../core/mail/mailer.ts';

/**
 * Email through an SMTP server (SMTP_URL: smtp://user:pass@host:587, smtps://… for implicit
 * TLS). One pooled transport per instance; nodemailer's timeouts bound every send.
 */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(
    url: string,
    private readonly from: string,
  ) {
    this.transport = createTransport(url);
  }

  async send(message: MailMessage): Promise<void> {
    const { to, subject, text, html } = message;
    await this.transport.sendMail({ from: this.from, to, subject, text, ...(html === undefined ? {} : { html }) });
  }

  close(): void {
    this.transport.close();
  }
}
