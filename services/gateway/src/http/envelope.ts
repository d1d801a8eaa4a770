import { type ErrorBody, type ErrorEnvelope, type Pagination, wholeList } from '@rootline/contracts';

/** Success envelope around a payload. */
export function ok<T>(data: T): { success: true; data: T; error: null } {
  return { success: true, data, error: null };
}

/**
 * Success envelope around data already written as JSON text (a service's reply, serialised by its contract at the
 * source): the envelope as text, sent without parsing the data again.
 */
export function okJson(dataJson: string): string {
  return `{"success":true,"data":${dataJson},"error":null}`;
}

/**
 * Success envelope around a page already written as JSON text by the service's contract: the items' text in
 * `data` and the members of the head's text (pagination, meta) beside them, in the order of `okPage`'s schema.
 */
export function okPageJson(headJson: string, itemsJson: string): string {
  const members = headJson.slice(1, -1);
  return `{"success":true,"data":${itemsJson},"error":null${members === '' ? '' : `,${members}`}}`;
}

/**
 * Success envelope of one page of a list: the items in `data`, the pagination object beside them, and the list's
 * `meta` (facts about the whole list) when it has one.
 */
export function okPage<T>(
  data: T[],
  pagination: Pagination,
  meta?: unknown,
): { success: true; data: T[]; error: null; pagination: Pagination; meta?: unknown } {
  return { success: true, data, error: null, pagination, ...(meta === undefined ? {} : { meta }) };
}

/**
 * Success envelope of a list answered whole: the items in `data`, the pagination of its one page beside them, and
 * its `meta` when it has one.
 */
export function okList<T>(
  data: T[],
  meta?: unknown,
): { success: true; data: T[]; error: null; pagination: Pagination; meta?: unknown } {
  return {
    success: true,
    data,
    error: null,
    pagination: wholeList(data.length),
    ...(meta === undefined ? {} : { meta }),
  };
}

/** Failure envelope around an error body. */
export function failure(error: ErrorBody): ErrorEnvelope {
  return { success: false, data: null, error };
}
