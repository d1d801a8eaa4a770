import { LOCALES, type Locale } from '@rootline/contracts/auth';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';

/**
 * The language a document the API writes itself (a certificate PDF) is written in: the one the request names, else
 * the one saved on the caller's account (a credential that does not verify is ignored, as on any public read), else
 * the best of the request's `Accept-Language` the platform is written in, else English (ADR 256).
 */
export async function readerLanguage(
  app: FastifyInstance,
  req: FastifyRequest,
  chosen: Locale | undefined,
): Promise<Locale> {
  if (chosen) return chosen;
  const caller = req.principal ?? (await app.identify(req));
  if (caller?.user.locale) return caller.user.locale;
  const header = req.headers['accept-language'];
  if (!header) return 'en';
  return (new Negotiator({ headers: { 'accept-language': header } }).language([...LOCALES]) as Locale) ?? 'en';
}
