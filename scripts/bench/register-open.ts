import { loadavg } from 'node:os';
import { api, plantInput } from '@rootline/testing';
import postgres from 'postgres';
import { startPlatformCluster } from './lib/http-bench.js';
import { startBenchInfra } from './lib/infra.js';
import { runLoad } from './lib/load.js';
import { fmt, markdownTable, pct, type Table, textTable } from './lib/markdown.js';
import { type OpenLoopStep, type OpenLoopStepResult, runOpenLoop } from './lib/open-loop.js';
import { type CpuGroup, CpuMeter, type CpuUsage } from './lib/proc-cpu.js';
import type { Benchmark } from './lib/types.js';
import { ADMIN, chainSettings, ROLE } from './register.js';

/** Offered arrival rates, stepped up: registrations per second; `BENCH_OPEN_RATES` (e.g. `1000,1500`) changes them. */
const RATES = (process.env.BENCH_OPEN_RATES ?? '500,1000,1500,2000,2500,3000,3500,5000')
  .split(',')
  .map(Number)
  .filter((r) => Number.isFinite(r) && r > 0);
const TARGET_RPS = 3500;
const TARGET_P99_MS = 1000;
/** A registration not answered in this time is an error. */
const TIMEOUT_SECONDS = 10;
/** The closed-loop comparison: as `pnpm bench register`, 256 clients with one registration in flight each. */
const CLOSED_CONNECTIONS = 256;
const BODIES = 200;

/** At a step's end: registrations stored, and how many of them the two event consumers have not applied yet. */
interface Backlog {
  plants: number;
  audit: number;
  notify: number;
}

/** Reads the backlog of the audit log and notify consumers (rows they write per registration, against plants). */
async function readBacklog(sql: postgres.Sql): Promise<Backlog> {
  const [row] = await sql<{ plants: number; audited: number; notified: number }[]>`
    select (select count(*) from plants.plants)::int as plants,
      (select count(*) from transparency.audit_entries where kind = 'plant.registered')::int as audited,
      (select count(*) from notify.notifications where type = 'plant-registered')::int as notified`;
  return { plants: row!.plants, audit: row!.plants - row!.audited, notify: row!.plants - row!.notified };
}

interface StepFigures {
  result: OpenLoopStepResult;
  cpu: CpuUsage;
  /** Read when the step's last answer came. */
  backlog: Promise<Backlog>;
  /** One-minute load average of the machine when the step began. */
  load: number;
}

/** CPU µs per registration of each process group, over `done` registrations. */
const perRegistration = (cpu: CpuUsage, done: number) =>
  cpu.groups.map((g) => (done > 0 ? fmt((g.seconds * 1e6) / done) : '–'));

const passes = (r: OpenLoopStepResult) => r.errors === 0 && r.latency.p99 <= TARGET_P99_MS;

/**
 * POST /api/plants/register under open-loop load: registrations arrive at a fixed rate whatever the answers
 * do, stepped up, each step with its latency, errors and CPU per registration by process; then the closed-loop
 * figure (256 clients) in the same cluster for comparison.
 */
export const registerOpen: Benchmark = {
  name: 'register-open',
  title: 'POST /api/plants/register under open-loop load: the highest arrival rate sustained',
  timeLimitSeconds: (s) =>
    360 + s.warmupSeconds + RATES.length * (s.durationSeconds + 2 + TIMEOUT_SECONDS) + s.durationSeconds + 60,
  async run(ctx) {
    const { settings } = ctx;
    const { nats, db, natsPids, pgPids } = await startBenchInfra(ctx);
    ctx.log('starting the cluster (one process per service, and the gateway)');
    const { cluster, stop } = await startPlatformCluster(
      ctx,
      { natsUrl: nats.url, databaseUrl: db.url },
      { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password },
    );
    try {
      const signIn = await api(cluster.url, '/api/auth/signin', { body: ADMIN });
      if (signIn.status !== 200) throw new Error(`sign-in answered ${signIn.status} ${JSON.stringify(signIn.body)}`);
      const token: string = signIn.body.data.token;
      const probe = await api(cluster.url, '/api/plants/register', { token, body: plantInput() });
      if (probe.status !== 201) throw new Error(`a registration answered ${probe.status}`);

      const pid = (name: string) => cluster.processes.get(name)?.pid ?? -1;
      const gateway = pid('gateway');
      const plants = pid('plants');
      const transparency = pid('transparency');
      const notify = pid('notify');
      const miners = [...cluster.processes.entries()]
        .filter(([n]) => n.startsWith('chain-miner'))
        .map(([, p]) => p.pid!);
      let loadPid = -1;
      const groups: CpuGroup[] = [
        { name: ROLE.gateway, pids: () => [gateway] },
        { name: ROLE.plants, pids: () => [plants] },
        { name: ROLE.chain, pids: () => miners },
        { name: ROLE.transparency, pids: () => [transparency] },
        { name: ROLE.notify, pids: () => [notify] },
        {
          name: ROLE.other,
          pids: () =>
            [...cluster.processes.values()].flatMap((p) =>
              p.pid && ![gateway, plants, transparency, notify, ...miners].includes(p.pid) ? [p.pid] : [],
            ),
        },
        { name: ROLE.nats, pids: natsPids },
        { name: ROLE.postgres, pids: pgPids },
        { name: 'load generator (a process of its own)', pids: () => [loadPid] },
      ];
      const requests = Array.from({ length: BODIES }, () => ({
        method: 'POST',
        path: '/api/plants/register',
        body: JSON.stringify(plantInput()),
      }));
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

      const steps: OpenLoopStep[] = [
        ...(settings.warmupSeconds > 0 ? [{ rate: RATES[0]!, seconds: settings.warmupSeconds, uncounted: true }] : []),
        ...RATES.map((rate) => ({ rate, seconds: settings.durationSeconds })),
      ];
      ctx.log(`open loop: ${RATES.join(', ')} registrations/s, ${settings.durationSeconds} s each`);
      const figures: StepFigures[] = [];
      const sql = postgres(db.url, { max: 1, onnotice: () => {} });
      ctx.scope.defer(() => sql.end({ timeout: 1 }));
      let meter = new CpuMeter(groups);
      let load = 0;
      await runOpenLoop(
        ctx.scope,
        {
          url: cluster.url,
          requests,
          headers,
          steps,
          timeoutSeconds: TIMEOUT_SECONDS,
          pauseSeconds: 2,
          giveUpP99Ms: 5000,
        },
        {
          onStepStart(_index, generator) {
            loadPid = generator;
            load = loadavg()[0] ?? 0;
            meter = new CpuMeter(groups);
            meter.start();
          },
          onStepEnd(_index, result) {
            const backlog = readBacklog(sql);
            backlog.catch(() => {});
            figures.push({ result, cpu: meter.stop(), load, backlog });
            ctx.log(
              `  ${result.rate}/s: achieved ${fmt(result.achievedRate)}/s, p99 ${fmt(result.latency.p99)} ms, ` +
                `${result.errors} errors (load average ${fmt(load, 2)})`,
            );
          },
        },
      );

      ctx.log(`closed loop: ${CLOSED_CONNECTIONS} connections, ${settings.durationSeconds} s`);
      const closedMeter = new CpuMeter(groups);
      const closedLoad = loadavg()[0] ?? 0;
      let closedCpu: CpuUsage | undefined;
      const closed = await runLoad(
        ctx.scope,
        {
          url: cluster.url,
          paths: [],
          requests,
          headers,
          connections: CLOSED_CONNECTIONS,
          durationSeconds: settings.durationSeconds,
          warmupSeconds: 0,
        },
        {
          onMeasureStart(generator) {
            loadPid = generator;
            closedMeter.start();
          },
          onMeasureEnd() {
            closedCpu = closedMeter.stop();
          },
        },
      );
      if (!closedCpu) throw new Error('the closed-loop window was not observed');
      const backlogs = await Promise.all(figures.map((f) => f.backlog));
      return report(figures, backlogs, { closed, cpu: closedCpu, load: closedLoad }, groups);
    } finally {
      ctx.log('stopping the cluster');
      await stop();
    }
  },
};

function report(
  steps: StepFigures[],
  backlogs: Backlog[],
  closed: { closed: Awaited<ReturnType<typeof runLoad>>; cpu: CpuUsage; load: number },
  groups: CpuGroup[],
): { text: string; markdown: string } {
  const best = steps.filter((s) => passes(s.result)).at(-1);
  const headline = best
    ? `Highest offered rate sustained with p99 ≤ ${fmt(TARGET_P99_MS)} ms and no errors: **${fmt(best.result.rate)} ` +
      `registrations/s** (achieved ${fmt(best.result.achievedRate)}/s, p99 ${fmt(best.result.latency.p99)} ms), ` +
      `which ${best.result.rate >= TARGET_RPS ? 'meets' : 'misses'} the target of ${fmt(TARGET_RPS)}/s.`
    : `No step was sustained with p99 ≤ ${fmt(TARGET_P99_MS)} ms and no errors: the target of ${fmt(TARGET_RPS)}/s is missed.`;
  const stepTable: Table = {
    head: [
      'offered /s',
      'achieved /s',
      'p50 ms',
      'p99 ms',
      'max ms',
      'errors',
      'send lag p99 ms',
      'machine busy',
      'load avg at start',
      'not yet audited / notified at the end',
    ],
    rows: steps.map(({ result: r, cpu, load }, i) => [
      fmt(r.rate),
      fmt(r.achievedRate),
      fmt(r.latency.p50),
      fmt(r.latency.p99),
      fmt(r.latency.max),
      `${fmt(r.errors)} of ${fmt(r.sent)}`,
      fmt(r.sendLagMs.p99, 1),
      pct(cpu.machineBusy / cpu.machineTotal),
      fmt(load, 2),
      `${fmt(backlogs[i]!.audit)} / ${fmt(backlogs[i]!.notify)}`,
    ]),
    right: Array(10).fill(true),
  };
  const c = closed.closed;
  const cpuTable: Table = {
    head: [
      'CPU µs per registration',
      ...steps.map((s) => `${fmt(s.result.rate)}/s`),
      `closed loop, ${CLOSED_CONNECTIONS} clients`,
    ],
    rows: groups.map((g, i) => [
      g.name,
      ...steps.map((s) => perRegistration(s.cpu, s.result.ok)[i]!),
      perRegistration(closed.cpu, c.requests)[i]!,
    ]),
    right: [false, ...steps.map(() => true), true],
  };
  const closedLine =
    `Closed loop in the same cluster (${CLOSED_CONNECTIONS} connections, one registration in flight each, as ` +
    `\`pnpm bench register\`): ${fmt(c.requestsPerSecond)} registrations/s, p50 ${fmt(c.latency.p50)} ms, p99 ` +
    `${fmt(c.latency.p99)} ms, ${fmt(c.errors + c.timeouts + c.non2xx)} errors (load average ${fmt(closed.load, 2)} at its start).`;
  const markdown = [
    `Settings: registrations arrive at a fixed rate whatever the answers do (open loop: a population of ` +
      `independent clients), stepped ${RATES.join(', ')}/s, each step as long as \`--duration\` after an uncounted ` +
      `warm-up at ${RATES[0]}/s, 2 s apart; stepping stops after a step with errors or a p99 above 5 s. Latency is ` +
      `timed from each request's scheduled arrival (no coordinated omission); a registration unanswered ` +
      `${TIMEOUT_SECONDS} s after it was sent is an error; "achieved" counts 2xx answers over the span from the step's first arrival ` +
      `to its last answer; "send lag" is how far the generator itself fell behind its schedule. Cluster as in ` +
      `\`pnpm bench register\` (one process per service, private nats-server, fresh database, ADMIN token, ` +
      `${BODIES} distinct bodies). ${chainSettings()}. CPU from \`/proc\` per step, the step's stragglers included. ` +
      `The answers do not wait for the event consumers: "not yet audited / notified" counts the stored plants ` +
      `without their audit-log entry and without their in-app notification when the step's last answer came (a ` +
      `backlog that grows from step to step is work deferred, not done).`,
    '',
    markdownTable(stepTable),
    '',
    headline,
    '',
    '### Where the time goes',
    '',
    markdownTable(cpuTable),
    '',
    closedLine,
  ].join('\n');
  const text = [textTable(stepTable), '', headline.replaceAll('**', ''), '', textTable(cpuTable), '', closedLine].join(
    '\n',
  );
  return { text, markdown };
}
