import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export type { ParsedMail } from 'mailparser';

/** A real SMTP server on a free local port that keeps what it receives, parsed, for assertions. */
export interface TestSmtp {
  url: string;
  received: ParsedMail[];
  /** Refuses the next `times` deliveries to `address` with a temporary failure (451). */
  refuse(address: string, times: number): void;
  stop(): Promise<void>;
}

/** Starts a {@link TestSmtp} on a free port of 127.0.0.1. */
export async function startTestSmtp(): Promise<TestSmtp> {
  const received: ParsedMail[] = [];
  const refusals = new Map<string, number>();
  const refusedSessions = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    // Plain SMTP on the loopback: nodemailer would otherwise upgrade with a certificate the test does not have.
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, session, callback) {
      const left = refusals.get(address.address) ?? 0;
      // Counted per connection: each attempt of the sender is one.
      if (left > 0 && !refusedSessions.has(session.id)) {
        refusedSessions.add(session.id);
        refusals.set(address.address, left - 1);
        const err = Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 });
        callback(err);
        return;
      }
      callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuse: (address, times) => refusals.set(address, times),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
