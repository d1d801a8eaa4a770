import { randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import type {} from '@fastify/multipart';
import { AppError, FileFields } from '@rootline/contracts';
import type { Storage } from '@rootline/storage';
import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { FastifyRequest } from 'fastify';

const Fields = Type.Object(FileFields, { additionalProperties: false });

/** What the gateway streamed into storage, for media to validate. */
export interface StreamedUpload {
  uploadKey: string;
  filename: string;
  fields: Static<typeof Fields>;
}

/** The name as sent, without folders or control characters, for display only (never a storage key). */
export function cleanName(name: string | undefined): string {
  const clean = [...basename(name ?? '')]
    .filter((ch) => {
      const code = ch.codePointAt(0) ?? 0;
      return code >= 0x20 && code !== 0x7f && (code < 0xd800 || code > 0xdfff);
    })
    .join('')
    .trim();
  return clean.slice(0, 255) || 'upload';
}

function checkFields(raw: Record<string, string>): StreamedUpload['fields'] {
  if (Value.Check(Fields, raw)) return raw;
  const issues = [...Value.Errors(Fields, raw)].map((e) => ({
    field: e.path.replace(/^\//, '') || '(form)',
    message: e.message,
  }));
  throw new AppError('VALIDATION_ERROR', 'The form fields are not valid', issues);
}

/**
 * Streams the `file` part of a multipart request into storage under a fresh `pending/` key, bounded by
 * `maxBytes` (PAYLOAD_TOO_LARGE beyond it, and nothing is kept). The form fields must come before the file,
 * so they are checked before a byte of it is stored.
 */
export async function streamUpload(req: FastifyRequest, storage: Storage, maxBytes: number): Promise<StreamedUpload> {
  const raw: Record<string, string> = {};
  for await (const part of req.parts()) {
    if (part.type === 'field') {
      raw[part.fieldname] = String(part.value);
      continue;
    }
    if (part.fieldname !== 'file') {
      throw new AppError('VALIDATION_ERROR', 'The file goes in the field named "file"', { field: part.fieldname });
    }
    const fields = checkFields(raw);
    const uploadKey = `pending/${randomBytes(18).toString('base64url')}`;
    try {
      await storage.put(uploadKey, part.file, { contentType: 'application/octet-stream', maxBytes });
    } catch (err) {
      const status = (err as { statusCode?: number }).statusCode;
      if (status === 413)
        throw new AppError('PAYLOAD_TOO_LARGE', `The file is larger than the limit of ${maxBytes} bytes`, {
          reason: 'file-too-large',
          maxBytes,
        });
      throw err;
    }
    // busboy stops at its own limit (one byte past ours) and marks the stream truncated.
    if (part.file.truncated) {
      await storage.delete([uploadKey]);
      throw new AppError('PAYLOAD_TOO_LARGE', `The file is larger than the limit of ${maxBytes} bytes`, {
        reason: 'file-too-large',
        maxBytes,
      });
    }
    return { uploadKey, filename: cleanName(part.filename), fields };
  }
  throw new AppError('VALIDATION_ERROR', 'The request has no file: send it in the multipart field "file"', {
    field: 'file',
  });
}
