import type { Message } from './messages.js';
import { textsIn } from './texts.js';

/** The parts of an email that nodemailer sends: subject, plain text and HTML, both with the same content. */
export interface EmailContent {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** Turns the addresses in a line into links (escaped first, so nothing in the text becomes markup). */
const linkify = (line: string) => escapeHtml(line).replace(/https?:\/\/[^\s<]+/g, (u) => `<a href="${u}">${u}</a>`);

/**
 * Builds an email from a message, in the recipient's language: greeting, body, a link to the page it is about and, unless it protects the
 * account, the unsubscribe link (which works without signing in).
 */
export function emailContent(
  m: Message,
  opts: { name: string; publicUrl: string; unsubscribeUrl?: string; locale?: string | null },
): EmailContent {
  const s = textsIn(opts.locale);
  const lines = [s('email.greeting', { name: opts.name }), '', ...m.body.split('\n')];
  if (m.link) lines.push('', `${opts.publicUrl}${m.link}`);
  const footer = opts.unsubscribeUrl
    ? ['', '--', s('email.unsubscribe', { url: opts.unsubscribeUrl })]
    : ['', '--', s('email.signature')];
  const text = [...lines, ...footer].join('\n');
  const paragraphs = [...lines, ...footer]
    .join('\n')
    .split(/\n{2,}/)
    .map((p) => `<p>${p.split('\n').map(linkify).join('<br>')}</p>`)
    .join('\n');
  const html = `<!doctype html>\n<html><body style="font-family:sans-serif">\n${paragraphs}\n</body></html>\n`;
  return { subject: m.title, text, html };
}
