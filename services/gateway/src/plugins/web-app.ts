import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { failure } from '../http/envelope.js';

/** apps/web/dist of this repository, seen from src/plugins or dist/plugins of the gateway. */
export const DEFAULT_WEB_APP_DIR = fileURLToPath(new URL('../../../../apps/web/dist', import.meta.url));

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The app's service worker (offline shell, Web Push), served at the root so its scope is the whole app. It is read
 * again at every request (it is small and asked for once per visit): a build that replaced it is offered to open
 * pages as a new version at once, without a restart of the gateway.
 */
const SERVICE_WORKER = 'sw.js';

/** Types worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = new Set(['.js', '.css', '.html', '.json', '.webmanifest', '.svg', '.txt']);

/** Answers the app's index.html. */
export type AppPage = (req: FastifyRequest, reply: FastifyReply) => FastifyReply;

interface StaticFile {
  type: string;
  body: Buffer;
  gzip: Buffer | null;
}

export interface WebAppOptions {
  /** The build folder (index.html and assets/). */
  dir: string;
  /** Settings the page reads from its meta tags: the street tile URL and its attribution. */
  map: { tileUrl?: string | undefined; tileAttribution: string };
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function load(path: string, ext: string): StaticFile {
  const body = readFileSync(path);
  return { type: TYPES[ext] ?? 'application/octet-stream', body, gzip: COMPRESSIBLE.has(ext) ? gzipSync(body) : null };
}

/** The file at `path` as it is now; undefined while it cannot be read. */
function fresh(path: string, ext: string): () => StaticFile | undefined {
  return () => {
    try {
      return load(path, ext);
    } catch {
      return undefined;
    }
  };
}

/** The file at `path`, loaded by the first call and kept; undefined while it cannot be read (a rebuild removed it). */
function once(path: string, ext: string): () => StaticFile | undefined {
  let file: StaticFile | undefined;
  return () => {
    try {
      file ??= load(path, ext);
    } catch {
      return undefined;
    }
    return file;
  };
}

function send(req: FastifyRequest, reply: FastifyReply, file: StaticFile, cache: string): FastifyReply {
  reply.type(file.type).header('cache-control', cache).header('vary', 'accept-encoding');
  const acceptsGzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  if (file.gzip && acceptsGzip) return reply.header('content-encoding', 'gzip').send(file.gzip);
  return reply.send(file.body);
}

/**
 * The web app at `/`: hashed files under /assets (cached for a year), and index.html for `/` and for any other
 * GET outside /api, so the app's own router resolves deep links. Paths under /api are never answered here: they
 * stay with the API's JSON 404. Files are read and compressed once, when first asked for. Returns the handler that answers
 * index.html (for the not-found handler's fallback), or null (serving nothing) when the folder holds no build.
 */
export function serveWebApp(app: FastifyInstance, opts: WebAppOptions): AppPage | null {
  const indexPath = join(opts.dir, 'index.html');
  if (!existsSync(indexPath)) return null;
  const meta = [
    opts.map.tileUrl ? `<meta name="rootline:map-tile-url" content="${escapeAttribute(opts.map.tileUrl)}">` : '',
    opts.map.tileAttribution
      ? `<meta name="rootline:map-tile-attribution" content="${escapeAttribute(opts.map.tileAttribution)}">`
      : '',
  ].join('');
  const html = readFileSync(indexPath, 'utf8').replace('</head>', `${meta}</head>`);
  const index: StaticFile = { type: TYPES['.html']!, body: Buffer.from(html), gzip: gzipSync(html) };

  // Each file is read and compressed when first asked for, then kept: a start reads only the folder's names, and a
  // process that serves no browser holds none of the app's 1.5 MB.
  const assets = new Map<string, () => StaticFile | undefined>();
  const assetDir = join(opts.dir, 'assets');
  if (existsSync(assetDir)) {
    for (const name of readdirSync(assetDir)) assets.set(name, once(join(assetDir, name), extname(name)));
  }
  // Files beside index.html (icons, the manifest, the service worker), served by name.
  const topLevel = new Map<string, () => StaticFile | undefined>();
  for (const entry of readdirSync(opts.dir, { withFileTypes: true })) {
    if (entry.isFile() && entry.name !== 'index.html') {
      const read = entry.name === SERVICE_WORKER ? fresh : once;
      topLevel.set(entry.name, read(join(opts.dir, entry.name), extname(entry.name)));
    }
  }

  // Page loads fetch a dozen files at once: they are not counted against the API's rate limits.
  const config = { rateLimit: false as const, public: true };
  const appPage: AppPage = (req, reply) => send(req, reply, index, 'no-cache');
  app.get('/', { config, schema: { hide: true } }, appPage);
  app.get<{ Params: { file: string } }>('/assets/:file', { config, schema: { hide: true } }, (req, reply) => {
    const file = assets.get(req.params.file)?.();
    if (!file) return appNotFound(reply, req.url);
    return send(req, reply, file, 'public, max-age=31536000, immutable');
  });
  for (const [name, file] of topLevel) {
    // The service worker is checked for a new version at each visit: a cached one would keep an old worker.
    const cache = name === SERVICE_WORKER ? 'no-cache' : 'public, max-age=3600';
    app.get(`/${name}`, { config, schema: { hide: true } }, (req, reply) => {
      const loaded = file();
      return loaded ? send(req, reply, loaded, cache) : appNotFound(reply, req.url);
    });
  }
  return appPage;
}

function appNotFound(reply: FastifyReply, url: string): FastifyReply {
  return reply.code(404).send(failure({ code: 'NOT_FOUND', message: `No file ${url}` }));
}

/** Whether a request that matched no route is a page of the app: a GET or HEAD outside /api and /assets. */
export function isAppPath(method: string, path: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  return !(path === '/api' || path.startsWith('/api/') || path.startsWith('/assets/'));
}
