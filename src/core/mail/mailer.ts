/** One plain-text email to one person. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends email; an adapter picks how (SMTP, or a log line when there is no mail server). */
export interface Mailer {
  /** Resolves once the message is handed over; rejects when it could not be. */
  send(message: MailMessage): Promise<void>;
}
