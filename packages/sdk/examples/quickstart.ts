import { createRootline } from '@rootline/sdk';

const rootline = createRootline({ baseUrl: process.env.ROOTLINE_URL ?? 'http://localhost:3000' });
const email = 'ada@example.org';
const password = 'correct horse battery staple';

// An account (409 DUPLICATE when it exists already), then a session: the client keeps its token.
await rootline.POST('/api/auth/register', { body: { email, password, name: 'Ada' } });
const { user } = await rootline.signIn(email, password);

// Every POST carries a fresh Idempotency-Key: withRetry(...) retries with the same one.
const registered = await rootline.POST('/api/plants/register', {
  body: { commonName: 'Tomato', location: { latitude: 52.37, longitude: 4.89 }, owner: { id: user.id, name: 'Ada' } },
});
if (!registered.data) throw new Error(registered.error.error.message);

const { data } = await rootline.GET('/api/plants/{plantId}', {
  params: { path: { plantId: registered.data.data.id } },
});
console.log(data?.data.id, data?.data.commonName, data?.data.registeredAt);
