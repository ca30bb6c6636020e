import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface SunkMail {
  to: string[];
  /** The whole message as sent (headers and body). */
  raw: string;
}

/**
 * A local SMTP server that keeps every message it is given: the real SMTP adapter talks to it
 * over TCP, as to any mail server. No TLS and no authentication, on 127.0.0.1 only.
 */
export class SmtpSink {
  readonly mails: SunkMail[] = [];
  private waiters: Array<() => void> = [];
  private readonly server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        this.mails.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        for (const wake of this.waiters.splice(0)) wake();
        callback();
      });
    },
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `smtp://127.0.0.1:${(this.server.server.address() as AddressInfo).port}`;
  }

  /** The first message to that address from `from` on (the mail leaves after the answer). */
  async mailTo(address: string, from = 0): Promise<SunkMail> {
    for (;;) {
      const found = this.mails.slice(from).find((m) => m.to.includes(address));
      if (found) return found;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The reset link in a message (quoted-printable soft breaks undone). */
export function resetLinkOf(raw: string): string {
  const body = raw.replace(/=\r?\n/g, '');
  const match = /(https?:\/\/[^\s]+\/login\/reset\/[A-Za-z0-9_-]{43})/.exec(body);
  if (!match) throw new Error(`no reset link in:\n${raw}`);
  return match[1]!;
}
