import { randomUUID } from 'node:crypto';
import { createConnection } from 'node:net';
import { type Bus, createNatsBus } from '@rootline/bus';
import {
  chainBlockGet,
  chainTxSubmit,
  chainTxSubmitBatch,
  TX_BATCH_MAX,
  type TxBatchResult,
  type TxReceipt,
} from '@rootline/contracts';
import { createOutbox, type Database, migrateSchema, openDatabase } from '@rootline/db';
import { call, createLogger, startService, systemClock, unscrapedMetrics } from '@rootline/host';
import { startTestInfra, type TestInfra } from '@rootline/testing';
import { asc, desc, eq, gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocks, mempool, outbox, transactions } from '../src/db/schema.js';
import { createMiner, type Miner } from '../src/jobs/miner.js';
import { service } from '../src/service.js';

const log = createLogger('test', 'silent');
const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const ctx = { requestId: 'req_test' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms = (iso: string) => Date.parse(iso);

/** One chain-miner service on its own NATS server and database, and a client bus. */
async function startLedger(env: Record<string, string>) {
  const infra = await startTestInfra();
  const database = await openDatabase({ url: infra.pg.url, dataDir: '.' });
  const bus = await createNatsBus({ url: infra.nats.url, name: 'chain-miner', log: quiet });
  const running = await startService(service, { bus, database, log, env });
  const client = await createNatsBus({ url: infra.nats.url, name: 'test-client', log: quiet });
  return {
    infra,
    database,
    running,
    client,
    async stop() {
      await client.close();
      await running.stop();
      await bus.close();
      await database.close();
      await infra.stop();
    },
  };
}

/**
 * Sends one request as raw bytes on a NATS connection of its own (plain protocol: CONNECT, SUB, PUB, then the MSG
 * that answers). The bus client sends what JSON.stringify writes, which turns a non-finite number into null, so a
 * payload the ledger cannot encode reaches it only as raw JSON like this, as any other client could send it:
 * JSON.parse reads `1e999` as Infinity, which canonical JSON refuses.
 */
async function rawRequest(port: number, subject: string, body: string): Promise<unknown> {
  const socket = createConnection({ host: '127.0.0.1', port });
  try {
    return await new Promise((resolve, reject) => {
      let received = Buffer.alloc(0);
      socket.on('error', reject);
      socket.on('data', (chunk) => {
        received = Buffer.concat([received, chunk]);
        // latin1 keeps one character per byte, so indices in the text are byte offsets.
        const text = received.toString('latin1');
        if (/(^|\r\n)-ERR/.test(text)) return reject(new Error(`NATS refused: ${text}`));
        const head = /(?:^|\r\n)MSG \S+ \S+ (?:\S+ )?(\d+)\r\n/.exec(text);
        if (!head) return;
        const start = head.index + head[0].length;
        const size = Number(head[1]);
        if (received.length >= start + size) {
          resolve(JSON.parse(received.subarray(start, start + size).toString('utf8')));
        }
      });
      const inbox = `_INBOX.raw_${randomUUID().replaceAll('-', '')}`;
      socket.write(
        `CONNECT {"verbose":false,"pedantic":false}\r\nSUB ${inbox} 1\r\n` +
          `PUB ${subject} ${inbox} ${Buffer.byteLength(body)}\r\n${body}\r\n`,
      );
    });
  } finally {
    socket.destroy();
  }
}

describe('chain.tx.submit-batch', () => {
  let ledger: Awaited<ReturnType<typeof startLedger>>;

  beforeAll(async () => {
    ledger = await startLedger({ CHAIN_DIFFICULTY: '8', CHAIN_CONFIRM_TIMEOUT_MS: '3000' });
  });

  afterAll(async () => {
    await ledger?.stop();
  });

  it('answers each transaction with its receipt, in request order, each in the block it names', async () => {
    const sent = Array.from({ length: 8 }, (_, i) => ({ type: `test.batch.${i % 3}`, payload: { i, tag: 'order' } }));
    const { results } = await call(ledger.client, chainTxSubmitBatch, { transactions: sent }, ctx);
    expect(results).toHaveLength(sent.length);
    const receipts = results.map((r, i) => {
      if (!r.ok) throw new Error(`transaction ${i} failed: ${r.error.code} ${r.error.message}`);
      return r.receipt;
    });
    expect(new Set(receipts.map((r) => r.txId)).size).toBe(sent.length);
    // One message, submitted in one turn: its transactions share the next block.
    expect(new Set(receipts.map((r) => r.blockIndex)).size).toBe(1);
    for (const [i, receipt] of receipts.entries()) {
      const block = await call(ledger.client, chainBlockGet, { hash: receipt.blockHash }, ctx);
      expect(block.index).toBe(receipt.blockIndex);
      expect(block.timestamp).toBe(receipt.timestamp);
      const tx = block.transactions.find((t) => t.id === receipt.txId);
      // Result i belongs to request item i: same type and payload.
      expect(tx, receipt.txId).toMatchObject({ type: sent[i]!.type, payload: `{"i":${i},"tag":"order"}` });
    }
  });

  it('answers an item the ledger cannot encode with its error, and records the others', async () => {
    const body =
      '{"transactions":[{"type":"test.raw","payload":{"n":1}},{"type":"test.raw","payload":{"n":1e999}},' +
      '{"type":"test.raw","payload":{"n":3}}]}';
    const reply = (await rawRequest(ledger.infra.nats.port, chainTxSubmitBatch.subject, body)) as {
      ok: boolean;
      data: { results: TxBatchResult[] };
    };
    expect(reply.ok).toBe(true);
    const [first, bad, third] = reply.data.results;
    expect(reply.data.results).toHaveLength(3);
    expect(bad).toEqual({
      ok: false,
      error: { code: 'VALIDATION_ERROR', message: expect.stringContaining('non-finite') },
    });
    const good = [first, third].map((r) => {
      expect(r?.ok).toBe(true);
      return (r as { receipt: TxReceipt }).receipt;
    });
    const rows = await ledger.database.db
      .select()
      .from(transactions)
      .where(eq(transactions.type, 'test.raw'))
      .orderBy(asc(transactions.position));
    expect(rows.map((r) => [r.id, r.blockIndex, r.payload])).toEqual([
      [good[0]!.txId, good[0]!.blockIndex, '{"n":1}'],
      [good[1]!.txId, good[1]!.blockIndex, '{"n":3}'],
    ]);
  });

  it('refuses a batch of no transactions, or of more than TX_BATCH_MAX, with VALIDATION_ERROR', async () => {
    await expect(call(ledger.client, chainTxSubmitBatch, { transactions: [] }, ctx)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    const tooMany = Array.from({ length: TX_BATCH_MAX + 1 }, (_, i) => ({ type: 'test.over', payload: { i } }));
    await expect(call(ledger.client, chainTxSubmitBatch, { transactions: tooMany }, ctx)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    // Refused as a whole: none of its transactions was accepted.
    await sleep(50);
    expect(await ledger.database.db.select().from(mempool)).toEqual([]);
    expect(await ledger.database.db.select().from(transactions).where(eq(transactions.type, 'test.over'))).toEqual([]);
  });
});

describe('block interval (CHAIN_BLOCK_INTERVAL_MS)', () => {
  const INTERVAL = 400;
  const MAX_BLOCK_TX = 50;
  /** Block timestamps are wall-clock milliseconds; the wait is measured on the monotonic clock. */
  const SLACK_MS = 5;
  let ledger: Awaited<ReturnType<typeof startLedger>>;

  const tip = async () => {
    const [last] = await ledger.database.db.select().from(blocks).orderBy(desc(blocks.index)).limit(1);
    return last?.index ?? -1;
  };
  const blocksAfter = (index: number) =>
    ledger.database.db.select().from(blocks).where(gt(blocks.index, index)).orderBy(asc(blocks.index));
  const submit = (payload: Record<string, unknown>) =>
    call(ledger.client, chainTxSubmit, { type: 'test.interval', payload }, ctx);

  beforeAll(async () => {
    ledger = await startLedger({
      CHAIN_DIFFICULTY: '8',
      CHAIN_BLOCK_INTERVAL_MS: String(INTERVAL),
      CHAIN_MAX_BLOCK_TX: String(MAX_BLOCK_TX),
      CHAIN_CONFIRM_TIMEOUT_MS: '3000',
    });
  });

  afterAll(async () => {
    await ledger?.stop();
  });

  it('under continuous load, assembles non-full blocks at least the interval apart, several transactions each', async () => {
    const before = await tip();
    // 20 clients, each submitting again as soon as it is answered: about 20 transactions in flight for 2 s.
    const end = Date.now() + 2000;
    let n = 0;
    const client = async () => {
      while (Date.now() < end) await submit({ n: n++ });
    };
    await Promise.all(Array.from({ length: 20 }, client));
    const mined = await blocksAfter(before);
    expect(mined.reduce((sum, b) => sum + b.txCount, 0)).toBe(n);
    for (const [k, b] of mined.entries()) {
      if (k === 0 || b.txCount >= MAX_BLOCK_TX) continue;
      const gap = ms(b.timestamp) - ms(mined[k - 1]!.timestamp);
      expect(gap, `block ${b.index} came ${gap} ms after the one before`).toBeGreaterThanOrEqual(INTERVAL - SLACK_MS);
    }
    // Without the interval these clients get a block every few milliseconds; with it, about one per interval.
    expect(mined.length).toBeLessThanOrEqual(Math.ceil(2000 / INTERVAL) + 2);
    expect(Math.min(...mined.map((b) => b.txCount))).toBeGreaterThan(1);
  });

  it('never holds a lone submitter back: one transaction after the other, each block goes at once', async () => {
    // Idle: the last block of the load is more than an interval old.
    await sleep(INTERVAL + 100);
    const receipts: TxReceipt[] = [];
    for (let i = 0; i < 5; i++) {
      const sentAt = Date.now();
      const receipt = await submit({ lone: i });
      const roundTrip = Date.now() - sentAt;
      // Well below the interval, which would have delayed all but the first.
      expect(roundTrip, `submission ${i}`).toBeLessThan(INTERVAL / 2);
      expect(ms(receipt.timestamp) - sentAt).toBeLessThan(INTERVAL / 2);
      receipts.push(receipt);
    }
    expect(new Set(receipts.map((r) => r.blockIndex)).size).toBe(5);
  });

  it('assembles a full block at once, ending the interval wait early', async () => {
    // A block of three: the next one waits for the interval, even after an idle moment.
    const first = await call(
      ledger.client,
      chainTxSubmitBatch,
      { transactions: [1, 2, 3].map((i) => ({ type: 'test.interval', payload: { three: i } })) },
      ctx,
    );
    const three = first.results.map((r) => (r as { receipt: TxReceipt }).receipt);
    const lone = submit({ waits: true });
    await sleep(50);
    // A full block's worth joins the waiting transaction, and one more.
    const full = call(
      ledger.client,
      chainTxSubmitBatch,
      { transactions: Array.from({ length: MAX_BLOCK_TX }, (_, i) => ({ type: 'test.interval', payload: { i } })) },
      ctx,
    );
    const [waited, { results }] = await Promise.all([lone, full]);
    const byBlock = new Map<number, TxReceipt[]>();
    for (const r of [waited, ...results.map((x) => (x as { receipt: TxReceipt }).receipt)]) {
      byBlock.set(r.blockIndex, [...(byBlock.get(r.blockIndex) ?? []), r]);
    }
    const [fullBlock, rest] = [...byBlock.entries()].sort(([a], [b]) => a - b).map(([, rs]) => rs);
    expect(fullBlock).toHaveLength(MAX_BLOCK_TX);
    expect(fullBlock).toContainEqual(waited);
    expect(rest).toHaveLength(1);
    const threeAt = ms(three[0]!.timestamp);
    const fullAt = ms(fullBlock![0]!.timestamp);
    // The full block did not wait out the interval after the block of three...
    expect(fullAt - threeAt).toBeLessThan(INTERVAL - 100);
    // ...while the one left over, not a full block, waited for it after the full one.
    expect(ms(rest![0]!.timestamp) - fullAt).toBeGreaterThanOrEqual(INTERVAL - SLACK_MS);
  });
});

describe('an appender stopping during the block interval', () => {
  let infra: TestInfra;
  let database: Database;
  let bus: Bus;
  let miner: Miner;

  beforeAll(async () => {
    infra = await startTestInfra();
    database = await openDatabase({ url: infra.pg.url, dataDir: '.' });
    await migrateSchema(database, { schema: 'chain', migrationsFolder: service.db!.migrationsFolder });
    bus = await createNatsBus({ url: infra.nats.url, name: 'chain-miner', log: quiet });
    miner = createMiner({
      bus,
      db: database.db,
      outbox: createOutbox({ database, table: outbox, publish: (e) => bus.publish(e), log }),
      listen: (channel, fn, onListen) => database.listen(channel, fn, onListen),
      log,
      clock: systemClock,
      instanceId: randomUUID(),
      version: service.version,
      metrics: unscrapedMetrics('chain-miner'),
      options: {
        difficulty: 8,
        maxBlockTx: 50,
        batchDelayMs: 2,
        // Far longer than the test: only an interrupted wait lets it pass.
        blockIntervalMs: 10_000,
        threads: 1,
        nice: 10,
        leaseMs: 2000,
        confirmTimeoutMs: 20_000,
      },
    });
    await miner.start();
  });

  afterAll(async () => {
    await bus?.close();
    await database?.close();
    await infra?.stop();
  });

  it('stops at once, handing the waiting transaction over to the mempool table', async () => {
    await Promise.all([1, 2, 3].map((i) => miner.submit('test.stop', { i })));
    expect(miner.isAppender()).toBe(true);
    const waiting = miner.submit('test.stop', { waits: true });
    const outcome = waiting.catch((err: unknown) => err);
    await sleep(100);
    const started = Date.now();
    await miner.stop();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await outcome).toMatchObject({ code: 'CHAIN_ERROR' });
    // Not mined: it waits in the table for the next appender.
    const txId = ((await outcome) as { details: { txId: string } }).details.txId;
    expect(await database.db.select().from(mempool).where(eq(mempool.id, txId))).toHaveLength(1);
    expect(await database.db.select().from(transactions).where(eq(transactions.id, txId))).toEqual([]);
  });
});
