/** A JSON response as tests read it: the status, the parsed envelope, the headers. */
export interface ApiResponse {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests walk arbitrary JSON bodies and assert on them.
  body: any;
  headers: Headers;
}

/** Calls the HTTP API with an optional bearer token and JSON body, and parses the JSON answer. */
export async function api(
  baseUrl: string,
  path: string,
  opts: { method?: string; token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${baseUrl}${path}`, {
    method: opts.method ?? (opts.body === undefined ? 'GET' : 'POST'),
    headers,
    ...(opts.body === undefined ? {} : { body: JSON.stringify(opts.body) }),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (metrics, docs): leave the text for the test to inspect.
  }
  return { status: res.status, body, headers: res.headers };
}
