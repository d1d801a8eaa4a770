import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Transporter } from 'nodemailer';
import type { EmailContent } from '../../domain/email.js';

/**
 * nodemailer (and the SOCKS client) are loaded when the first email leaves, not when the platform starts: many
 * starts send none. The transporter is made then, once.
 */
function lazily(make: (nodemailer: typeof import('nodemailer')) => Promise<Transporter>) {
  let made: Promise<Transporter> | undefined;
  return {
    get: () => {
      made ??= import('nodemailer').then((m) => make(m.default ?? m));
      return made;
    },
    close: () => {
      void made?.then((t) => t.close()).catch(() => {});
    },
  };
}

/** One email ready to leave: addresses, content and headers. */
export interface OutgoingEmail extends EmailContent {
  to: string;
  /** Stable per delivery, so a resend after a crash can be recognised as the same message by the receiver. */
  messageId: string;
  headers?: Record<string, string>;
}

/** Where emails go: an SMTP server, or .eml files in a folder when none is configured. */
export interface MailTransport {
  readonly description: string;
  send(email: OutgoingEmail): Promise<void>;
  close(): void;
}

const message = (from: string, e: OutgoingEmail) => ({
  from,
  to: e.to,
  subject: e.subject,
  text: e.text,
  html: e.html,
  messageId: e.messageId,
  headers: e.headers ?? {},
});

/**
 * Sends through an SMTP server (nodemailer); a refused recipient or a dropped connection throws. With
 * `socksProxyUrl` (SOCKS_PROXY_URL) the connection goes through that SOCKS5 proxy, which also resolves the SMTP
 * server's name (`socks5h://` and `socks5://` alike: nodemailer hands the proxy the host name).
 */
export function smtpTransport(url: string, from: string, socksProxyUrl?: string): MailTransport {
  const proxy = socksProxyUrl?.replace(/^socks5h:/, 'socks5:');
  // nodemailer takes settings beside a URL only from its query string.
  const withProxy = new URL(url);
  if (proxy) withProxy.searchParams.set('proxy', proxy);
  const transporter = lazily(async (nodemailer) => {
    const made = nodemailer.createTransport(withProxy.toString());
    if (proxy) made.set('proxy_socks_module', { SocksClient: (await import('socks')).SocksClient });
    return made;
  });
  return {
    description: `SMTP ${new URL(url).host}${proxy ? ' through the SOCKS proxy' : ''}`,
    async send(e) {
      await (await transporter.get()).sendMail(message(from, e));
    },
    close: transporter.close,
  };
}

/** Writes each email as an .eml file (RFC 5322, openable by any mail client), named after its message id. */
export function fileTransport(dir: string, from: string): MailTransport {
  const folder = resolve(dir);
  const transporter = lazily(async (nodemailer) =>
    nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
  );
  return {
    description: `files under ${folder}`,
    async send(e) {
      const info = await (await transporter.get()).sendMail(message(from, e));
      await mkdir(folder, { recursive: true });
      const name = e.messageId.replace(/[<>]/g, '').replace(/[^A-Za-z0-9._-]/g, '_');
      await writeFile(join(folder, `${name}.eml`), info.message as Buffer);
    },
    close: transporter.close,
  };
}
