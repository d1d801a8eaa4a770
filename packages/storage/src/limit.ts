import { Transform, type TransformCallback } from 'node:stream';
import { AppError } from '@rootline/contracts';

/** The error a stream over its size limit fails with. */
export function tooLarge(maxBytes: number): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', `The file is larger than the limit of ${maxBytes} bytes`, {
    reason: 'file-too-large',
    maxBytes,
  });
}

/** A pass-through that counts bytes and fails with PAYLOAD_TOO_LARGE once they pass `maxBytes`. */
export class ByteLimit extends Transform {
  bytes = 0;
  constructor(private readonly maxBytes: number = Number.POSITIVE_INFINITY) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) done(tooLarge(this.maxBytes));
    else done(null, chunk);
  }
}
