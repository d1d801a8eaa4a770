const queues = new WeakMap<object, Map<string, Promise<unknown>>>();

/**
 * Runs `fn` once every earlier call with the same owner and key has settled (whether it failed or not),
 * so in-process work on one shared resource never overlaps.
 */
export async function serialise<T>(owner: object, key: string, fn: () => Promise<T>): Promise<T> {
  let byKey = queues.get(owner);
  if (!byKey) {
    byKey = new Map();
    queues.set(owner, byKey);
  }
  const run = (byKey.get(key) ?? Promise.resolve()).catch(() => {}).then(fn);
  byKey.set(key, run);
  try {
    return await run;
  } finally {
    if (byKey.get(key) === run) byKey.delete(key);
  }
}
