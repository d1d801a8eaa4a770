import { emailLinkIssue } from '@rootline/contracts';
import { appLink } from '@rootline/contracts/app-links';
import { organizationInvitationIssue } from '@rootline/contracts/organizations';
import { call, publicUrlOf, type ServiceContext } from '@rootline/host';
import type { NotifyConfig } from '../../config.js';
import type { DeliveryRow } from '../../db/deliveries.repo.js';
import { findRecipient } from '../../db/recipients.repo.js';
import { emailContent } from '../../domain/email.js';
import { render, type Template } from '../../domain/messages.js';
import { isPreferenceType } from '../../domain/preferences.js';
import { unsubscribeToken } from '../../domain/unsubscribe.js';
import type { MailTransport } from './transport.js';

/**
 * Sends an email delivery: finds the address (for a one-time link, asks the gateway for the link's secret, which
 * lives only in this message: ADR 034), renders text and HTML with the unsubscribe link, and hands it to the
 * transport. Throws when it could not be sent, so the delivery is retried.
 */
export function createEmailSend(ctx: ServiceContext<NotifyConfig>, transport: MailTransport, unsubscribeKey: Buffer) {
  const { config } = ctx;
  async function resolve(
    d: DeliveryRow,
    base: string,
  ): Promise<{ to: string; name: string; locale: string | null; action?: string }> {
    const template = { name: d.template, params: d.params } as Template;
    if (template.name === 'verify-email' || template.name === 'reset-password') {
      // The secret exists only in this reply and in this message (ADR 034).
      const link = await call(ctx.bus, emailLinkIssue, { linkId: template.params.linkId }, { requestId: d.id });
      const locale = (await findRecipient(ctx.db, d.userId))?.locale ?? null;
      return { to: link.email, name: link.name, locale, action: `${base}${link.linkPath}` };
    }
    if (template.name === 'organization-invitation') {
      // An address that may have no account yet: the gateway names it with the link's secret (ADR 236).
      const link = await call(
        ctx.bus,
        organizationInvitationIssue,
        { invitationId: template.params.invitationId },
        { requestId: d.id },
      );
      // The invitee may have no account, so no language of their own: the message is in the inviter's.
      const inviter = template.params.invitedBy ? await findRecipient(ctx.db, template.params.invitedBy) : null;
      return { to: link.email, name: link.email, locale: inviter?.locale ?? null, action: `${base}${link.linkPath}` };
    }
    const r = await findRecipient(ctx.db, d.userId);
    if (!r) throw new Error(`no email address known for ${d.userId} yet`);
    return { to: r.email, name: r.name, locale: r.locale };
  }

  return async function sendEmail(d: DeliveryRow): Promise<void> {
    // Links start with notify's PUBLIC_URL, else the address of the request that caused the message.
    const base = publicUrlOf({ publicUrl: d.publicUrl ?? undefined }, config.PUBLIC_URL);
    const to = await resolve(d, base);
    const template = { name: d.template, params: d.params } as Template;
    const token = isPreferenceType(d.type)
      ? unsubscribeToken(unsubscribeKey, { userId: d.userId, type: d.type })
      : undefined;
    // The link a person opens is the web app's page, which says what it turned off (ADR 150); mail clients
    // POST the one-click header's address, the API itself (RFC 8058).
    const unsubscribeUrl = token ? `${base}/api/notifications/unsubscribe?token=${token}` : undefined;
    const unsubscribePage = token ? `${base}${appLink('unsubscribe')}?token=${token}` : undefined;
    // In the recipient's language (the account's, as its events told notify).
    const content = emailContent(render(template, to.action, to.locale), {
      name: to.name,
      locale: to.locale,
      publicUrl: base,
      ...(unsubscribePage ? { unsubscribeUrl: unsubscribePage } : {}),
    });
    await transport.send({
      ...content,
      to: to.to,
      messageId: `<${d.id}@rootline>`,
      // RFC 8058 one-click unsubscribe: mail clients POST to the address without opening it.
      ...(unsubscribeUrl
        ? {
            headers: {
              'List-Unsubscribe': `<${unsubscribeUrl}>`,
              'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
            },
          }
        : {}),
    });
  };
}
