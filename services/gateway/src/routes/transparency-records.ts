import type { ServerResponse } from 'node:http';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  Envelope,
  type ExportCursor,
  ExportHttpQuery,
  ExportSummary,
  PublicEvent,
  SignedCertificate,
  transparencyCertificateGet,
  transparencyDashboardGet,
  transparencyExportChunk,
  transparencyExportSummary,
  transparencyHealthGet,
  transparencyLabelsRender,
  transparencyReportGet,
} from '@rootline/contracts';
import type { Locale } from '@rootline/contracts/auth';
import { call } from '@rootline/host';
import { Type } from '@sinclair/typebox';
import { type BusRouteDeps, busRoute, requestParts } from '../http/bus-route.js';
import { ok } from '../http/envelope.js';
import { readerLanguage } from '../http/reader-language.js';
import { callContext } from '../http/request-context.js';
import { gatewayErrorCodes, operationSchema } from '../plugins/openapi.js';
import { CsvFile, downloadResponse, EXPORT_RULE } from './export-docs.js';

const TAGS = ['Transparency'];

const CERTIFICATE =
  'A certificate of authenticity of a plant, public (no session): the plant (location as its privacy level allows), ' +
  'a lineage summary, the ledger block header, the RFC 6962 inclusion proof of its registration transaction in ' +
  'the block’s Merkle root (with its payload as the public ledger shows it), the RFC 6962 inclusion proof of its ' +
  '`plant.registered` entry in the audit log with the tree head signed at that size, and `signature`: Ed25519 by ' +
  'the platform key ' +
  '(`/api/transparency/audit/public-key`) over the RFC 8785 canonical JSON (UTF-8) of `certificate`. It verifies ' +
  'offline (docs/transparency.md gives the steps). `format=pdf` answers the same as a printable PDF ' +
  '(`application/pdf`) with a QR code that opens the public verification page, its words, dates and numbers in ' +
  '`language` (`en`, `nl`, `de`, `fr`, `es`), else the language saved on the caller’s account (when the request ' +
  'carries a session or token), else the best of `Accept-Language`, else English; `Content-Language` names it.';

const CERTIFICATE_EXAMPLE = {
  certificate: {
    type: 'rootline.certificate-of-authenticity',
    version: 1,
    issuedAt: '2026-11-23T08:00:00.000Z',
    verificationUrl: 'https://rootline.example/api/transport/trace/plt_01HZX3K6Q2W8N4B7T5R9V0C1MD',
    plant: {
      id: 'plt_01HZX3K6Q2W8N4B7T5R9V0C1MD',
      commonName: 'Tomato',
      scientificName: 'Solanum lycopersicum',
      generation: 1,
      parentId: 'plt_01HZX3K6Q2W8N4B7T5R9V0C1MA',
      propagationType: 'cutting',
      privacyLevel: 'city',
      location: { latitude: 52.35, longitude: 4.9, city: 'Amsterdam', country: 'NL' },
      registeredAt: '2026-11-20T09:29:59.950Z',
    },
    lineage: { ancestors: 1, rootId: 'plt_01HZX3K6Q2W8N4B7T5R9V0C1MA', children: 0 },
    block: {
      index: 42,
      hash: '00aff461dbc4433f7f34026429988ad77e8f40c01bfbf8de0be18558e96c6762',
      timestamp: '2026-11-20T09:30:00.000Z',
      previousHash: '00a1f3c0e2b45d6879a0b1c2d3e4f5061728394a5b6c7d8e9f00112233445566',
      merkleRoot: '745805c14b3fc5ccca0f4f56ea917b0df42d4d3b24aef704302b181eeb7da8b4',
      difficulty: 16,
      nonce: 278,
    },
    ledgerProof: {
      txId: 'tx_01JNQ8Z5V3K2M7R4T6W9X0Y1A2',
      payload: '{"commonName":"Tomato","plantId":"plt_01HZX3K6Q2W8N4B7T5R9V0C1MD"}',
      leaf: 'tx_01JNQ8Z5V3K2M7R4T6W9X0Y1A2|plant.register|ae5a6954be1aad5db72b5586314f6e617559beeb4e6b41400c07f46bc717c7ae|2026-11-20T09:29:59.950Z',
      leafIndex: 0,
      treeSize: 3,
      auditPath: ['9b1c2e4d5f6a7b8c9d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e'],
    },
    auditLog: {
      index: 1041,
      leafHash: '5f0e4c1d2b3a49586776859a4b3c2d1e0f1e2d3c4b5a69788796a5b4c3d2e1f0',
      treeSize: 1200,
      rootHash: '1d2c3b4a59687766554433221100ffeeddccbbaa99887766554433221100ffee',
      auditPath: ['0f1e2d3c4b5a69788796a5b4c3d2e1f05f0e4c1d2b3a49586776859a4b3c2d1e'],
      treeHead: { timestampMs: 1795420800000, signature: 'q5P8…base64…AA==' },
    },
    keyId: '3b1f9c0e7d5a2f4e6c8b0a1d3e5f7a9c2b4d6f8e0a1c3e5f7091b2d4f6a8c0e2',
  },
  signature: { algorithm: 'Ed25519', keyId: '3b1f9c0e…', value: 'MEUCIQ…base64…==' },
};

const LABELS =
  'A PDF of QR labels for chosen plants, to print on label sheets (public; plant names are public records): ' +
  '`a4-3x8` (A4, 3 × 8 = 24 labels of 70 × 37 mm a page), `letter-3x10` (US Letter, 3 × 10 = 30 address labels of ' +
  '2⅝ × 1 in a page) or `seed-packet` (A4, 8 labels of 105 × 74 mm a page: crop, variety, the plant the seed was ' +
  'saved from, harvest date). Each label has the plant’s name, its registration date, its short id (the last 8 ' +
  'characters of its id) and a QR code that opens the plant’s public page in the app; never a location. More ' +
  'plants than a page holds continue on further pages; `startAt` skips used positions on the first sheet. At most ' +
  '240 plants a request. Answers `application/pdf` as a download (`rootline-labels.pdf`), with the headers ' +
  '`X-Label-Pages` and `X-Label-Count`; a refused request answers the error envelope.';

const EXPORT =
  'Public events (the history, oldest first) by `type` (kinds, comma-separated) and time range (`from` ≤ occurredAt ' +
  '< `to`), as a download streamed piece by piece: however large, it is never held in memory, and it is a snapshot ' +
  'of the events recorded when it started. `json`: an array of `{seq, id, kind, occurredAt, data}`; `csv`: RFC 4180 ' +
  'with the header `seq,id,kind,occurredAt,data` (data as JSON text); `epcis`: the `transport.completed` events as an ' +
  'EPCIS 2.0 JSON-LD `EPCISDocument` of `ObjectEvent`s (business steps as in docs/transport.md; plants as ' +
  '`urn:rootline:plant:<id>` EPCs, seed lots as `urn:rootline:seed-lot:<id>` classes); `summary`: counts by kind and ' +
  'by day, in the envelope (not a download). The file is `rootline-events.json`, `.csv` or `.epcis.jsonld`. A ' +
  'failure after the first bytes cuts the download short (the document is then incomplete, e.g. a JSON array ' +
  `without its closing bracket).\n\n${EXPORT_RULE}`;

const CONTENT_TYPES = { json: 'application/json', csv: 'text/csv', epcis: 'application/ld+json' } as const;
const FILE_NAMES = {
  json: 'rootline-events.json',
  csv: 'rootline-events.csv',
  epcis: 'rootline-events.epcis.jsonld',
} as const;

/** Resolves when the socket takes more data, or is gone. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Certificates of authenticity, exports, the compliance report, the dashboard and health, under /api/transparency. */
export const transparencyRecordRoutes: FastifyPluginAsyncTypebox<BusRouteDeps> = async (app, deps) => {
  const certParts = requestParts({ method: 'GET', url: '/certificate/:plantId', subject: transparencyCertificateGet });
  app.route({
    method: 'GET',
    url: '/certificate/:plantId',
    config: { public: true, object: { rule: 'public', field: 'plantId', record: 'plant' } },
    schema: operationSchema({
      ...certParts,
      operationId: 'getPlantCertificate',
      summary: 'Certificate of authenticity of a plant',
      description: CERTIFICATE,
      tags: TAGS,
      status: 200,
      success: {
        ...Envelope(SignedCertificate),
        examples: [{ success: true, data: CERTIFICATE_EXAMPLE, error: null }],
      },
      errors: [...gatewayErrorCodes({ ...certParts, policy: { public: true } }), 'NOT_FOUND', 'UNAVAILABLE'],
    }),
    handler: async (req, reply) => {
      const query = req.query as { format?: 'json' | 'pdf'; language?: Locale };
      const language = query.format === 'pdf' ? await readerLanguage(app, req, query.language) : undefined;
      const input = { ...(req.params as { plantId: string }), ...query, ...(language ? { language } : {}) };
      const { signed, pdf } = await call(
        deps.bus,
        transparencyCertificateGet,
        input as never,
        callContext(req),
        deps.timeoutMs * 4,
      );
      if (pdf === null) return ok(signed);
      reply.type('application/pdf');
      reply.header('content-disposition', `inline; filename="certificate-${signed.certificate.plant.id}.pdf"`);
      if (language) reply.header('content-language', language);
      reply.header('vary', 'accept-language, authorization, cookie');
      return Buffer.from(pdf, 'base64');
    },
  });

  const labelParts = requestParts({ method: 'POST', url: '/labels', subject: transparencyLabelsRender });
  app.route({
    method: 'POST',
    url: '/labels',
    config: {
      public: true,
      object: {
        rule: 'public',
        field: 'plantIds',
        record: 'plant',
        why: 'plant names are public; a label never shows a location',
      },
    },
    schema: operationSchema({
      ...labelParts,
      operationId: 'printPlantLabels',
      summary: 'Printable QR labels for plants',
      description: LABELS,
      tags: TAGS,
      status: 200,
      success: Type.String({ format: 'binary', description: 'The PDF' }),
      mediaType: 'application/pdf',
      // One plant: the example walk puts the one plant it made in place of every plant id.
      example: { plantIds: ['plt_01HZX3K6Q2W8N4B7T5R9V0C1MD'], layout: 'a4-3x8', startAt: 1 },
      errors: [...gatewayErrorCodes({ ...labelParts, policy: { public: true } }), 'NOT_FOUND', 'UNAVAILABLE'],
    }),
    handler: async (req, reply) => {
      const { pdf, pages, labels } = await call(
        deps.bus,
        transparencyLabelsRender,
        req.body as never,
        callContext(req),
        deps.timeoutMs * 4,
      );
      reply.type('application/pdf');
      reply.header('content-disposition', 'attachment; filename="rootline-labels.pdf"');
      reply.header('cache-control', 'no-store');
      reply.header('x-label-pages', String(pages));
      reply.header('x-label-count', String(labels));
      return Buffer.from(pdf, 'base64');
    },
  });

  app.route({
    method: 'GET',
    url: '/export',
    config: {
      permission: 'transparency:read',
      object: { rule: 'none', why: 'public records; personal fields as docs/privacy.md says' },
    },
    schema: operationSchema({
      querystring: ExportHttpQuery,
      operationId: 'exportEvents',
      summary: 'Export public events (JSON, CSV, summary, EPCIS 2.0)',
      description: EXPORT,
      tags: TAGS,
      status: 200,
      success: downloadResponse({
        'application/json': Type.Union([
          Type.Array(PublicEvent, { description: '`format=json`: the events, oldest first' }),
          Envelope(ExportSummary),
        ]),
        'text/csv': CsvFile(
          'seq,id,kind,occurredAt,data\r\n1,evt_…,plant.registered,2026-05-01T08:00:00.000Z,"{…}"\r\n',
        ),
        'application/ld+json': Type.Object(
          { type: Type.Literal('EPCISDocument'), epcisBody: Type.Object({ eventList: Type.Array(Type.Unknown()) }) },
          { description: '`format=epcis`: an EPCIS 2.0 JSON-LD document of ObjectEvents' },
        ),
      }),
      errors: [
        ...gatewayErrorCodes({ querystring: ExportHttpQuery, policy: { permission: 'transparency:read' } }),
        'UNAVAILABLE',
      ],
    }),
    handler: async (req, reply) => {
      const { format, ...query } = req.query as { format: 'json' | 'csv' | 'summary' | 'epcis' } & Record<
        string,
        string
      >;
      const ctx = callContext(req);
      if (format === 'summary') {
        return ok(await call(deps.bus, transparencyExportSummary, query, ctx, deps.timeoutMs * 4));
      }
      const piece = (cursor?: ExportCursor) =>
        call(
          deps.bus,
          transparencyExportChunk,
          { ...query, format, ...(cursor ? { cursor } : {}) },
          ctx,
          deps.timeoutMs * 4,
        );
      // The first piece before any byte is sent: a bad filter is still a clean 400 in the envelope.
      let next = await piece();
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': `${CONTENT_TYPES[format]}; charset=utf-8`,
        'content-disposition': `attachment; filename="${FILE_NAMES[format]}"`,
        'cache-control': 'no-store',
      });
      try {
        for (;;) {
          // Backpressure: the next piece is asked for only once the socket has taken this one.
          if (!res.write(next.text)) await drained(res);
          if (next.next === null || res.destroyed) break;
          next = await piece(next.next);
        }
        res.end();
      } catch (err) {
        req.log.warn({ err }, 'export cut short');
        res.destroy();
      }
    },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/report',
    summary: 'Compliance report of a period',
    description:
      'ADMIN only (`audit:read`). For `from` ≤ t < `to` (default the 30 days before now): the audit log re-verified ' +
      'entry by entry (hashes, hash chain, Merkle root) with the entries and admin actions of the period; the ledger ' +
      're-verified block by block through the chain service (`complete` false when the chain is longer than 50,000 ' +
      'blocks); webhook deliveries created in the period by status, success rate and average attempts; plants ' +
      'registered in the period by location privacy level (counts from the plants service); public events by kind; ' +
      'and what each store keeps (retention policy, oldest record, size). Reading the whole log and chain takes ' +
      'time on a large platform.',
    tags: TAGS,
    policy: { permission: 'audit:read', object: { rule: 'none', why: 'the platform’s compliance' } },
    subject: transparencyReportGet,
    timeoutMs: 120_000,
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/dashboard',
    summary: 'Platform metrics',
    description:
      'Aggregates from the event history and the audit log, nothing about a person: audit log size, root and last ' +
      'record; public events in all, in the last 24 hours and 7 days, and by kind; plants registered (all, last 30 ' +
      'days); transport events with their total km and kg CO2e; webhooks active and deliveries by status.',
    tags: TAGS,
    policy: { permission: 'transparency:read', object: { rule: 'none', why: 'network-wide figures' } },
    subject: transparencyDashboardGet,
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/health',
    summary: 'Health of every component',
    description:
      'ADMIN only (`audit:read`: it shows the topology). Each back-end service: instances found by service ' +
      'discovery (`$SRV.PING`), the round trip of its status request in ms, version, database check and outbox ' +
      'backlog (`down` when it does not answer within 1 s); the database (a `select 1` round trip); the bus ' +
      '(discovery round trip, instances); the transparency outbox (backlog, age of the oldest unpublished event); ' +
      'and the audit consumer (delay between an event and its audit entry, newest and worst of the last 100). ' +
      '`status` is the worst of all.',
    tags: TAGS,
    policy: { permission: 'audit:read', object: { rule: 'none', why: 'the platform’s components' } },
    subject: transparencyHealthGet,
    timeoutMs: 10_000,
  });
};
