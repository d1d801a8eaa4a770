import type { ErrorBody, ErrorEnvelope, Pagination } from '@rootline/contracts';

/** Success envelope around a payload. */
export function ok<T>(data: T): { success: true; data: T; error: null } {
  return { success: true, data, error: null };
}

/** Success envelope of one page of a list: the items in `data`, the pagination object beside them. */
export function okPage<T>(
  data: T[],
  pagination: Pagination,
): { success: true; data: T[]; error: null; pagination: Pagination } {
  return { success: true, data, error: null, pagination };
}

/** Failure envelope around an error body. */
export function failure(error: ErrorBody): ErrorEnvelope {
  return { success: false, data: null, error };
}
