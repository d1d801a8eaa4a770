import { ACT_AS_HEADER, IDEMPOTENCY_HEADER, RootlineError } from '@rootline/sdk';
import { api } from '../../../lib/api-client';
import { actAsHeaderOf, type OutboxItem, type Outcome, type Refusal } from '../lib/order';

/** The answer to one attempt: what it came to, and the record made or the refusal. */
export interface Attempt {
  outcome: Outcome;
  /** The record made (the answer's `data`), on a 2xx. */
  data?: { id: string } & Record<string, unknown>;
  refusal?: Refusal;
}

type Answer = { data?: unknown; error?: unknown; response: Response };

/**
 * Sends one kept write with its Idempotency-Key (the item's id), about `plantId` (the real id, when the item named
 * a plant still waiting). A fetch that fails (offline, the gateway unreachable) is `{ network: true }`.
 */
export async function sendItem(item: OutboxItem, plantId: string): Promise<Attempt> {
  // Sent for whom the tab acted when the write was kept, not for whom it acts now (ADR 265).
  const actAs = actAsHeaderOf(item);
  const headers = { [IDEMPOTENCY_HEADER]: item.id, ...(actAs === undefined ? {} : { [ACT_AS_HEADER]: actAs }) };
  let answer: Answer;
  try {
    answer = await request(item, plantId, headers);
  } catch {
    return { outcome: { network: true } };
  }
  const status = answer.response.status;
  if (answer.data !== undefined && status >= 200 && status < 300) {
    return { outcome: { status }, data: (answer.data as { data: { id: string } }).data };
  }
  const error = RootlineError.from(answer);
  return {
    outcome: { status, code: error.code, message: error.message },
    refusal: { status, code: error.code, message: error.message, details: error.details },
  };
}

function request(item: OutboxItem, plantId: string, headers: Record<string, string>): Promise<Answer> {
  switch (item.kind) {
    case 'plant':
      return api.POST('/api/plants/register', { body: item.body as never, headers });
    case 'event':
      return api.POST(`/api/transport/${item.eventKind ?? 'distribution'}` as '/api/transport/distribution', {
        body: { ...item.body, plantId } as never,
        headers,
      });
    case 'reading':
      return api.POST('/api/environment/records', { body: { ...item.body, plantId } as never, headers });
    case 'photo': {
      const form = new FormData();
      form.append('category', 'plant-photo');
      form.append('entityType', 'plant');
      form.append('entityId', plantId);
      if (item.file) form.append('file', item.file.blob, item.file.name);
      return api.POST('/api/upload/image', {
        body: form as never,
        // The browser writes the multipart boundary itself.
        bodySerializer: (body: unknown) => body as FormData,
        headers,
      });
    }
  }
}

/** The refusal as the error the forms and `errorFor` read. */
export function asError(refusal: Refusal): RootlineError {
  return new RootlineError(refusal.status, refusal.code, refusal.message, refusal.details);
}
