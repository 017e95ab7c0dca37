// For tests: a real SMTP server on loopback that keeps what it receives, so account e-mails
// really leave through nodemailer (auth-smtp.test.ts, sign-in-guard.test.ts).
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail {
  to: string[];
  raw: string;
}

export interface SmtpSink {
  url: string;
  inbox: ReceivedMail[];
  /** The mails to `address` so far. */
  mailsTo(address: string): ReceivedMail[];
  /** Waits (bounded) until `address` has received `count` mails; returns the last of them. */
  mailTo(address: string, count?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const inbox: ReceivedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  const port = (smtp.server.address() as AddressInfo).port;
  const mailsTo = (address: string) => inbox.filter((m) => m.to.includes(address));
  return {
    url: `smtp://127.0.0.1:${port}`,
    inbox,
    mailsTo,
    async mailTo(address, count = 1) {
      // Mail is sent after the answer that caused it: wait for it.
      for (let i = 0; i < 200; i++) {
        const found = mailsTo(address);
        if (found.length >= count) return found[count - 1]!;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no e-mail number ${count} reached ${address}`);
    },
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}

/** Undoes quoted-printable (long lines such as the link are wrapped and escaped). */
export function decodeQuotedPrintable(text: string): string {
  return text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** The confirmation link in a mail. */
export function confirmationLink(mail: ReceivedMail): string | undefined {
  return decodeQuotedPrintable(mail.raw).match(/https?:\/\/\S+\/api\/auth\/verify-email\?\S+/)?.[0];
}
