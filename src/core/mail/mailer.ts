/** One email to one person: plain text, and the same as HTML where a mail has both. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Sends email; an adapter picks how (SMTP, or a log line when there is no mail server). */
export interface Mailer {
  /** Resolves once the message is handed over; rejects when it could not be. */
  send(message: MailMessage): Promise<void>;
}
