import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ErrorCode } from '@rootline/contracts';
import { failure } from './envelope.js';
import { HTTP_STATUS } from './http-status.js';

/**
 * The raw HTTP answer to a request Node's parser refused before Fastify saw it, as the failure envelope (Node's
 * own answers were a bare 431 and `{"error":"Bad Request"}`); null when nothing should be written.
 */
export function clientErrorResponse(err: NodeJS.ErrnoException): string | null {
  // The client went away, or sent nothing in time: there is no request to answer.
  if (err.code === 'ECONNRESET' || err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return null;
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const code: ErrorCode = tooLarge ? 'HEADERS_TOO_LARGE' : 'VALIDATION_ERROR';
  const message = tooLarge ? 'The request line and headers are over the size limit (16 KB)' : 'Malformed HTTP request';
  const body = JSON.stringify(failure({ code, message }));
  const status = HTTP_STATUS[code];
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** Fastify's `clientErrorHandler`: answers with the envelope when the socket can still take it, then closes. */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  const response = clientErrorResponse(err);
  if (response !== null && socket.writable) socket.end(response);
  else socket.destroy(err);
}
