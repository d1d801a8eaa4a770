/** What one walkthrough sent: requests by kind, and the answers that were not 2xx. */
export interface WalkthroughResult {
  requests: number;
  registrations: number;
  reads: number;
  failures: string[];
}

/** Requests in a walkthrough: the docs, an account, a session, registrations and reads. */
export const WALKTHROUGH_REQUESTS = 200;
const REGISTRATIONS = 40;

/**
 * A new visitor's first steps, 200 requests one after another: the OpenAPI document and Swagger UI, an account and
 * a session, 40 plant registrations (each waits for its mined block), then reads of what was registered (one
 * plant, its lineage, nearby, search, chain statistics, the session) until the total is 200.
 */
export async function walkthrough(url: string): Promise<WalkthroughResult> {
  const failures: string[] = [];
  let requests = 0;
  const send = async (path: string, init: RequestInit = {}): Promise<unknown> => {
    requests += 1;
    const res = await fetch(`${url}${path}`, init);
    const text = await res.text();
    if (res.status >= 300) failures.push(`${init.method ?? 'GET'} ${path}: ${res.status} ${text.slice(0, 200)}`);
    return text.startsWith('{') ? JSON.parse(text) : text;
  };
  const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

  await send('/api/openapi.json');
  await send('/api/docs/');
  const email = `walk-${process.pid}-${Math.round(performance.now())}@example.org`;
  const password = 'a walkthrough passphrase';
  const account = (await send('/api/auth/register', json({ email, password, name: 'Walker' }))) as {
    data?: { id: string };
  };
  const signin = (await send('/api/auth/signin', json({ email, password }))) as { data?: { token: string } };
  const token = signin.data?.token;
  if (!token) throw new Error(`sign-in failed: ${failures.join('; ')}`);
  const auth = { authorization: `Bearer ${token}` };

  const plantIds: string[] = [];
  for (let i = 0; i < REGISTRATIONS; i++) {
    const body = {
      commonName: `Walkthrough basil ${i + 1}`,
      scientificName: 'Ocimum basilicum',
      location: { latitude: 52.37 + i * 1e-3, longitude: 4.89, city: 'Amsterdam', country: 'NL' },
      owner: { id: account.data?.id ?? 'usr_unknown', name: 'Walker' },
    };
    const reply = (await send('/api/plants/register', json(body, auth))) as { data?: { id: string } };
    if (reply.data?.id) plantIds.push(reply.data.id);
  }

  const reads = [
    (i: number) => `/api/plants/${plantIds[i % plantIds.length]}`,
    (i: number) => `/api/plants/lineage/${plantIds[i % plantIds.length]}`,
    () => '/api/plants/nearby?lat=52.38&lon=4.89&radius=10',
    () => '/api/plants/search?q=basil',
    () => '/api/chain/stats',
    () => '/api/auth/session',
  ];
  for (let i = 0; requests < WALKTHROUGH_REQUESTS; i++) {
    await send(reads[i % reads.length]!(Math.floor(i / reads.length)), { headers: auth });
  }
  return { requests, registrations: plantIds.length, reads: requests - 4 - REGISTRATIONS, failures };
}
