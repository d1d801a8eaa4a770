import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AppError,
  Envelope,
  IMPORT_FIELDS,
  IMPORT_KINDS,
  IMPORT_LIMITS,
  ImportJob,
  type ImportKind,
  ImportOptions,
  ImportSummary,
  InventoryExportQuery,
  importGet,
  importList,
  importStart,
  inventoryExportChunk,
  LIST_SEPARATOR,
  PAGE_DEFAULTS,
  PLANT_COLUMNS,
  SEED_LOT_COLUMNS,
} from '@rootline/contracts';
import { call } from '@rootline/host';
import type { Storage } from '@rootline/storage';
import { Value } from '@sinclair/typebox/value';
import type { FastifyContextConfig, FastifyRequest } from 'fastify';
import { type BusRouteDeps, busRoute } from '../http/bus-route.js';
import { ok } from '../http/envelope.js';
import type { AccountName } from '../http/party-names.js';
import { callContext } from '../http/request-context.js';
import type { DocumentedForm } from '../plugins/auth.js';
import { gatewayErrorCodes, operationSchema } from '../plugins/openapi.js';
import { CsvFile, downloadResponse } from './export-docs.js';
import { cleanName } from './upload-stream.js';

const TAGS = ['Imports'];

const SHAPE =
  `Seed lots: \`${SEED_LOT_COLUMNS.join(',')}\`; plants: \`${PLANT_COLUMNS.join(',')}\`. Parent plant ids in one ` +
  `cell are separated by \`${LIST_SEPARATOR}\`; an empty cell is no value; numbers as written in JavaScript (a dot ` +
  'for decimals).';

const FORM =
  'A `multipart/form-data` body: first the fields `kind` (`seed-lots` or `plants`), optionally `mapping` (a JSON ' +
  'object, CSV header → field), `keyColumn` (the header of each row’s key; default `key`) and `dryRun` (`true` ' +
  'to check every row and write nothing), then the CSV file in the field `file` (UTF-8, a header line first, comma ' +
  `separated, RFC 4180 quoting). At most ${IMPORT_LIMITS.maxBytes} bytes (413 PAYLOAD_TOO_LARGE beyond, ` +
  `\`details.maxBytes\`) and ${IMPORT_LIMITS.maxRows} rows. The body is streamed into storage, never held whole.`;

const DESCRIPTION =
  `${FORM}\n\nAnswers 202 with the import job; follow it with \`GET /api/imports/{importId}\`. The plants service ` +
  'reads the file as a stream, checks every row by the rules of `POST /api/seed-lots` or `POST ' +
  '/api/plants/register` and reports each problem with its line (the header is line 1). A row with a problem is ' +
  `not written; the others are, ${IMPORT_LIMITS.batchRows} rows to a transaction, each row whole (a lot with its ` +
  'first quantity change and its key). **Keys**: a row whose key was imported before (by the same owner and kind), ' +
  'or is the id of one of the owner’s records (a file exported from lots recorded otherwise), is `unchanged` when ' +
  'its values are the record’s, and fails with `key-conflict` when they differ: an import never changes nor ' +
  'duplicates a record. Plants are registered as the register operation would (privacy level applied before ' +
  'anything is stored) and written to the ledger in batches (ADR 298). The rows become the caller’s, or the ' +
  'organization’s it acts for (`Rootline-Act-As`, member or above).\n\nColumns: a header not in `mapping` is ' +
  `read as the field it is named like. The export’s shape, which needs no mapping: ${SHAPE}`;

/** The form of an import, for the document (the route streams the body and checks it itself). */
const IMPORT_FORM: DocumentedForm = {
  schema: {
    type: 'object',
    properties: {
      kind: { type: 'string', enum: [...IMPORT_KINDS], description: 'What each row records' },
      mapping: {
        type: 'string',
        description: `A JSON object, CSV header → field (${IMPORT_FIELDS.join(', ')})`,
      },
      keyColumn: { type: 'string', description: 'The header of the column of keys (default `key`)' },
      dryRun: { type: 'string', enum: ['true', 'false'], description: 'true: check and report, write nothing' },
      file: { type: 'string', format: 'binary', description: 'The CSV file, after the other fields' },
    },
    required: ['kind', 'file'],
    examples: [
      {
        kind: 'seed-lots',
        mapping: '{"Crop":"crop","Year":"harvestYear","Seeds":"quantityAmount","Unit":"quantityUnit","Ref":"key"}',
        dryRun: 'true',
        file: '(the bytes of a CSV file)',
      },
    ],
  },
  encoding: { file: { contentType: 'text/csv' } },
};

/** The form fields as the start request takes them; VALIDATION_ERROR naming each field that is not. */
function importOptions(raw: Record<string, string>): ImportOptions {
  const issues: { field: string; message: string }[] = [];
  let mapping: unknown;
  if (raw.mapping !== undefined && raw.mapping.trim() !== '') {
    try {
      mapping = JSON.parse(raw.mapping);
    } catch {
      issues.push({ field: 'mapping', message: 'mapping is not JSON' });
    }
  }
  const dryRun =
    raw.dryRun === undefined ? undefined : raw.dryRun === 'true' ? true : raw.dryRun === 'false' ? false : raw.dryRun;
  const options = {
    kind: raw.kind,
    ...(mapping === undefined ? {} : { mapping }),
    ...(raw.keyColumn ? { keyColumn: raw.keyColumn } : {}),
    ...(dryRun === undefined ? {} : { dryRun }),
  };
  for (const e of Value.Errors(ImportOptions, options)) {
    issues.push({ field: e.path.replace(/^\//, '') || '(form)', message: e.message });
  }
  const unknown = Object.keys(raw).filter((k) => !['kind', 'mapping', 'keyColumn', 'dryRun'].includes(k));
  for (const k of unknown) issues.push({ field: k, message: 'not a field of an import' });
  if (issues.length > 0) throw new AppError('VALIDATION_ERROR', 'The form fields are not valid', issues);
  return options as ImportOptions;
}

/** Streams the form into storage: the fields first, then the file under a fresh `imports/` key. */
async function streamImport(req: FastifyRequest, storage: Storage) {
  const raw: Record<string, string> = {};
  for await (const part of req.parts()) {
    if (part.type === 'field') {
      raw[part.fieldname] = String(part.value);
      continue;
    }
    if (part.fieldname !== 'file') {
      throw new AppError('VALIDATION_ERROR', 'The file goes in the field named "file"', { field: part.fieldname });
    }
    const options = importOptions(raw);
    const key = `imports/${randomBytes(18).toString('base64url')}`;
    const tooLarge = () =>
      new AppError('PAYLOAD_TOO_LARGE', `The file is larger than the limit of ${IMPORT_LIMITS.maxBytes} bytes`, {
        reason: 'file-too-large',
        maxBytes: IMPORT_LIMITS.maxBytes,
      });
    let bytes: number;
    try {
      ({ bytes } = await storage.put(key, part.file, { contentType: 'text/csv', maxBytes: IMPORT_LIMITS.maxBytes }));
    } catch (err) {
      if ((err as { statusCode?: number }).statusCode === 413) throw tooLarge();
      throw err;
    }
    if (part.file.truncated) {
      await storage.delete([key]);
      throw tooLarge();
    }
    return { options, upload: { key, bytes, filename: cleanName(part.filename) } };
  }
  throw new AppError('VALIDATION_ERROR', 'The request has no file: send it in the multipart field "file"', {
    field: 'file',
  });
}

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

export interface ImportRouteDeps extends BusRouteDeps {
  storage: Storage;
  accountName: AccountName;
}

/** CSV import (`/api/imports`) and the exports in the same shape (`/api/seed-lots/export.csv`, `/api/plants/export.csv`). */
export const importRoutes: FastifyPluginAsyncTypebox<ImportRouteDeps> = async (app, deps) => {
  await app.register(multipart, {
    limits: { files: 1, fields: 4, fieldSize: 20_000, parts: 6, fileSize: IMPORT_LIMITS.maxBytes + 1 },
  });

  const policy = {
    permission: 'plants:write',
    idempotent: true,
    object: { rule: 'none', why: 'new records of the caller, or of the organization it acts for (member or above)' },
  } as const;
  const config: FastifyContextConfig = { ...policy, documentedForm: IMPORT_FORM };
  app.route({
    method: 'POST',
    url: '/imports',
    config,
    schema: operationSchema({
      operationId: 'startImport',
      summary: 'Import seed lots or plants from a CSV file',
      description: `${DESCRIPTION}\n\nSend an \`Idempotency-Key\` to make a retry safe: the key names the import.`,
      tags: TAGS,
      status: 202,
      success: Envelope(ImportJob),
      errors: [
        ...gatewayErrorCodes({ policy }),
        'VALIDATION_ERROR',
        'PAYLOAD_TOO_LARGE',
        'UNAVAILABLE',
        'IDEMPOTENCY_KEY_REUSED',
      ],
    }),
    handler: async (req, reply) => {
      const { options, upload } = await streamImport(req, deps.storage);
      const ctx = callContext(req);
      try {
        const actor = ctx.actor;
        const ownerId = actor?.org?.id ?? actor?.id;
        const ownerName = options.kind === 'plants' && ownerId ? await deps.accountName(ownerId) : null;
        const job = await call(
          deps.bus,
          importStart,
          { ...options, upload, ...(ownerName ? { ownerName } : {}) },
          ctx,
          deps.timeoutMs,
        );
        reply.code(202);
        return ok(job);
      } catch (err) {
        await deps.storage.delete([upload.key]).catch(() => {});
        throw err;
      }
    },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/imports',
    summary: 'List your imports',
    description:
      'The imports of the caller, or of the organization it acts for (`Rootline-Act-As`, viewer and up), newest ' +
      'first: each with its state, progress and counts, and how many problems its report holds (read them with ' +
      '`GET /api/imports/{importId}`). Never another account’s or organization’s imports. `state` narrows it to ' +
      `\`queued\`, \`running\`, \`done\` or \`failed\`. \`page\` from 1 (default ${PAGE_DEFAULTS.page}); \`limit\` ` +
      `default ${PAGE_DEFAULTS.limit}, at most ${PAGE_DEFAULTS.maxLimit}.`,
    tags: TAGS,
    policy: {
      permission: 'plants:read',
      object: { rule: 'own', why: 'the imports of the caller or the organization it acts for' },
    },
    subject: importList,
    page: { item: ImportSummary },
  });

  busRoute(app, deps, {
    method: 'GET',
    url: '/imports/:importId',
    summary: 'Follow an import',
    description:
      'The import’s state (`queued`, `running`, `done`, `failed`: the file could not be read to its end, e.g. a ' +
      'header the mapping names is missing or a quote is never closed), its progress (rows read, bytes read of ' +
      'the file’s total), its counts (`created`, `unchanged`, `failed`; in a dry run what would be) and one page of ' +
      `its problems in line order (\`page\`, \`limit\`; at most ${IMPORT_LIMITS.maxProblems} are kept, ` +
      '`truncated` says when there were more). Each problem names its `line`, the `column` (header) and `field`, ' +
      'a `reason` code and an English `message`. Read by whoever started it and, for an organization’s import, ' +
      'its viewers and up; anyone else gets 403.',
    tags: TAGS,
    policy: {
      permission: 'plants:read',
      object: { rule: 'owner', field: 'importId', record: 'import', why: 'the owner of the imported records' },
    },
    subject: importGet,
    errors: ['NOT_FOUND'],
  });

  const exportRoute = (kind: ImportKind, url: string, operationId: string, what: string, example: string) =>
    app.route({
      method: 'GET',
      url,
      config: { permission: 'plants:read', object: { rule: 'self', field: 'ownerId' } },
      schema: operationSchema({
        querystring: InventoryExportQuery,
        operationId,
        summary: `Export ${what} as CSV`,
        description:
          `Every ${what.replace(/s$/, '')} of \`ownerId\` (your own id or the organization you act for, viewer ` +
          'or above; default: the organization acted for, else you), in id order, as the CSV an import takes ' +
          `without a mapping: importing it again changes nothing (each row’s key is the key it was imported under, ` +
          `else the record’s id). ${SHAPE} The file is streamed piece by piece (\`text/csv; charset=utf-8\`, ` +
          '`Content-Disposition: attachment`, `Cache-Control: no-store`); a refusal answers the error envelope.',
        tags: TAGS,
        status: 200,
        success: downloadResponse({ 'text/csv': CsvFile(example) }),
        errors: [
          ...gatewayErrorCodes({ querystring: InventoryExportQuery, policy: { permission: 'plants:read' } }),
          'FORBIDDEN',
          'UNAVAILABLE',
        ],
      }),
      handler: async (req, reply) => {
        const query = req.query as { ownerId?: string };
        const ctx = callContext(req);
        const piece = (after?: string) =>
          call(
            deps.bus,
            inventoryExportChunk,
            { ...query, kind, ...(after ? { after } : {}) },
            ctx,
            deps.timeoutMs * 4,
          );
        // The first piece before any byte is sent: a refusal is still the envelope with its status.
        let next = await piece();
        reply.hijack();
        const res = reply.raw;
        res.writeHead(200, {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': `attachment; filename="rootline-${kind}.csv"`,
          'cache-control': 'no-store',
        });
        try {
          for (;;) {
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
  exportRoute(
    'seed-lots',
    '/seed-lots/export.csv',
    'exportSeedLots',
    'seed lots',
    `${SEED_LOT_COLUMNS.join(',')}\nlot_tomato-2026-a,tomato,Brandywine,2026,120,seeds,plt_01HZX3K6Q2W8N4B7T5R9V0C1MD,"cellar, shelf 2",8,35,glass jar,\n`,
  );
  exportRoute(
    'plants',
    '/plants/export.csv',
    'exportPlants',
    'plants',
    `${PLANT_COLUMNS.join(',')}\nplt_01HZX3K6Q2W8N4B7T5R9V0C1MD,Tomato,Solanum lycopersicum,52.37,4.89,Amsterdam,NL,exact\n`,
  );
};
