// Issue #34 item 1, reminders at scale (docs/api.md#reminders). Two rows per engine:
// (a) what 100 000 scheduled reminders cost a worker that has none due: `paraph worker` runs on a
//     database holding 100 000 submissions (test/volume-seed.ts) and one `submitter.remind` job per
//     submission, spread over the next week, and on an empty one (the idle worker), in alternating
//     spans; its CPU over the loaded spans against the idle spans, target within 10 %. Reminders
//     are one job each with `runAt`, so the claim reads the due end of the index and nothing else.
//     The worker's own CPU: on PostgreSQL the database server's work is not in it.
// (b) 1 000 reminders due at once: 20 submissions of 50 signers in random order, created through the
//     API with a policy of one reminder after one policy hour (REMINDER_HOUR_SECONDS=1), their
//     signing requests marked sent; then `paraph worker` starts with SMTP_URL and is timed from its
//     start line to the bench's SMTP sink accepting the 1 000th distinct reminder, target < 30 s.
// PARAPH_REMINDER_SCHEDULED and PARAPH_REMINDER_SECONDS shrink (a) while developing;
// PARAPH_REMINDER_ROWS=a or =b runs one of the two.
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { sql } from 'kysely'
import { a4 } from '../../test/fixtures/pdfs.ts'
import { type SeedEngine, seedVolume } from '../../test/volume-seed.ts'
import { preflight } from '../measure.ts'
import { createBenchSchema, inThrowawaySchema, isReachable } from '../postgres.ts'
import { preciseCpuMicros } from '../processes.ts'
import type { BenchContext, LimitFigures, LimitRow, LimitScenario, SkippedRow } from '../scenario.ts'
import { type RunningServer, startParaph } from '../servers.ts'
import { SmtpSink } from '../smtp-sink.ts'
import { percentile } from '../stats.ts'
import { FROM_PDF_PATH, inline, jsonHeaders } from '../submissions.ts'
import { openBenchDatabase, timedRun } from '../worker-runs.ts'

const NAME = 'Reminders'
const WEEK_SECONDS = 7 * 86_400
const MAX_IDLE_EXCESS = 10
const DUE_AT_ONCE = 1000
const PER_SUBMISSION = 50
const SEND_LIMIT_MS = 30_000
const MAIL_FROM = 'Paraph Bench <bench@paraph.example>'

const scheduled = () => Number(process.env.PARAPH_REMINDER_SCHEDULED ?? 100_000)
const spanSeconds = () => Number(process.env.PARAPH_REMINDER_SECONDS ?? 60)
const count = (n: number) => n.toLocaleString('en-US')

function workerEnv(databaseUrl: string, dir: string, extra: Record<string, string> = {}) {
  return {
    PUBLIC_URL: 'http://127.0.0.1:8080',
    DATA_DIR: dir,
    DATABASE_URL: databaseUrl,
    PARAPH_SECRET: randomBytes(20).toString('hex'),
    MAIL_FROM,
    LOG_LEVEL: 'info',
    ...(process.env.WORKER_CONCURRENCY ? { WORKER_CONCURRENCY: process.env.WORKER_CONCURRENCY } : {}),
    ...extra,
  }
}

/** One `submitter.remind` job per seeded submission, due over the week after the next 10 minutes. */
async function scheduleReminders(databaseUrl: string, engine: SeedEngine, n: number): Promise<void> {
  const database = openBenchDatabase(databaseUrl)
  try {
    const now = Date.now()
    const pad = (i: number) => String(i).padStart(23, '0')
    // 2 000 rows of 11 values: under SQLite's 32 766 variables per statement.
    for (let from = 1; from <= n; from += 2000) {
      const rows = Array.from({ length: Math.min(2000, n - from + 1) }, (_, k) => {
        const i = from + k
        const at = new Date(now + 600_000 + Math.floor((i * WEEK_SECONDS * 1000) / n)).toISOString()
        return {
          id: `job_r${pad(i)}`,
          kind: 'submitter.remind',
          payload: JSON.stringify({ submitter_id: `sbm_0${pad(i)}`, number: 1 }),
          state: 'pending' as const,
          attempt: 0,
          max_attempts: 5,
          run_at: at,
          locked_until: null,
          last_error: null,
          created_at: new Date(now).toISOString(),
          updated_at: new Date(now).toISOString(),
        }
      })
      await database.db.insertInto('jobs').values(rows).execute()
    }
    await sql.raw(engine === 'postgres' ? 'vacuum analyze jobs' : 'analyze').execute(database.db)
  } finally {
    await database.close()
  }
}

async function seedLoaded(server: RunningServer, engine: SeedEngine, n: number): Promise<void> {
  const { account_id: accountId } = await preflight(server, '/v1/health')
  const database = openBenchDatabase(server.databaseUrl!)
  try {
    await seedVolume(database.db, engine, { accountId: String(accountId), submissions: n, now: new Date() })
  } finally {
    await database.close()
  }
  await scheduleReminders(server.databaseUrl!, engine, n)
}

/** The first seconds after the start line: the first run of each query and task on a cold cache. */
const WARM_UP_SECONDS = 10

/**
 * The worker's CPU (µs) over `seconds` of its steady state, on `databaseUrl`: from WARM_UP_SECONDS
 * after its start line (a first read of a 470 MB SQLite file's statistics and pages costs a worker
 * ~0.2 s once, whatever its queue — a start-up cost, not one per minute), read from schedstat
 * (nanoseconds), as an idle worker's minute is a few hundred milliseconds, tens of 10 ms ticks.
 */
async function workerCpu(databaseUrl: string, dir: string, name: string, seconds: number): Promise<number> {
  let used: number | null = null
  await timedRun(dir, name, ['bin/paraph.mjs', 'worker'], workerEnv(databaseUrl, dir), async (child) => {
    await sleep(WARM_UP_SECONDS * 1000)
    const before = preciseCpuMicros(child)
    await sleep(seconds * 1000)
    const after = preciseCpuMicros(child)
    used = before === null || after === null ? null : after - before
  })
  if (used === null) throw new Error('the worker CPU could not be read')
  return used
}

function figures(ok: number, sent: number, load: string, ms: number[], cpu: number | null): LimitFigures {
  return {
    ok,
    sent,
    rps: null,
    latencyLoad: load,
    p50Ms: ms.length ? percentile(ms, 50) : null,
    p99Ms: ms.length ? percentile(ms, 99) : null,
    maxMs: ms.length ? Math.max(...ms) : null,
    cpuMicrosPerRequest: cpu,
    childCpuMicrosPerRequest: null,
  }
}

/** Row (a): the loaded worker's CPU per minute against the idle worker's, in alternating spans. */
async function idleCost(engine: SeedEngine, urls: { idle: string | null; loaded: string | null }) {
  const n = scheduled()
  const idle = await startParaph(urls.idle)
  const loaded = await startParaph(urls.loaded)
  const dir = await mkdtemp(join(tmpdir(), 'paraph-bench-reminders-'))
  try {
    const seededAt = performance.now()
    await seedLoaded(loaded, engine, n)
    const seeded = (performance.now() - seededAt) / 1000
    const half = spanSeconds() / 2
    const cpu = { idle: [] as number[], loaded: [] as number[] }
    for (let round = 0; round < 2; round++) {
      cpu.idle.push(await workerCpu(idle.databaseUrl!, dir, `idle-${round}`, half))
      cpu.loaded.push(await workerCpu(loaded.databaseUrl!, dir, `loaded-${round}`, half))
    }
    const perMinute = (µs: number[]) => (µs.reduce((a, b) => a + b, 0) / (half * 2)) * 60
    const idleMs = perMinute(cpu.idle) / 1000
    const loadedMs = perMinute(cpu.loaded) / 1000
    const excess = ((loadedMs - idleMs) / idleMs) * 100
    return {
      scenario: NAME,
      case: `${engine} ${count(n)} scheduled, none due: worker CPU/min`,
      figures: figures(2, 2, `2 × ${half} s each`, [], null),
      reference: `idle worker ${idleMs.toFixed(0)} ms CPU/min; with ${count(n)} scheduled ${loadedMs.toFixed(0)} ms CPU/min`,
      notes: [
        `${engine}: ${count(n)} submissions and their reminder jobs (due over the week) written in ${seeded.toFixed(1)} s; CPU by span, ms: idle ${cpu.idle.map((µs) => (µs / 1000).toFixed(0)).join(' ')}; loaded ${cpu.loaded.map((µs) => (µs / 1000).toFixed(0)).join(' ')}`,
      ],
      judged: {
        label: 'CPU over idle',
        value: Math.max(0, excess),
        max: MAX_IDLE_EXCESS,
        unit: '%',
        derivation: `(loaded − idle) / idle; measured ${excess.toFixed(1)} %`,
      },
    } satisfies LimitRow
  } finally {
    await Promise.allSettled([idle.stop(), loaded.stop(), rm(dir, { recursive: true, force: true })])
  }
}

/** 20 submissions × 50 signers (random order), each signer's one reminder due one policy hour later. */
async function queueDueReminders(server: RunningServer): Promise<void> {
  const source = inline(await a4())
  const roles = Array.from({ length: PER_SUBMISSION }, (_, i) => `r${i}`)
  const fields = roles.map((role, i) => ({
    name: `S${i}`,
    role,
    areas: [{ page: 1, x: 0.05 + (i % 5) * 0.19, y: 0.04 + Math.floor(i / 5) * 0.095, w: 0.15, h: 0.04 }],
  }))
  for (let batch = 0; batch < DUE_AT_ONCE / PER_SUBMISSION; batch++) {
    const response = await fetch(`${server.process.baseUrl}${FROM_PDF_PATH}`, {
      method: 'POST',
      headers: { ...jsonHeaders(server), 'idempotency-key': randomUUID() },
      body: JSON.stringify({
        signing_order: 'random',
        reminders: { first_after_hours: 1, every_hours: 720, max_count: 1 },
        documents: [{ name: `Contract ${batch}`, ...source, fields }],
        submitters: roles.map((role, i) => ({ role, email: `s${batch}-${i}@example.eu` })),
      }),
    })
    if (response.status !== 201)
      throw new Error(`from_pdf answered ${response.status}: ${await response.text()}`)
  }
  const database = openBenchDatabase(server.databaseUrl!)
  try {
    // The signing requests count as sent: the sink then receives the reminders alone.
    await database.db.updateTable('jobs').set({ state: 'done' }).where('kind', '=', 'mail.send').execute()
    const due = await database.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('kind', '=', 'submitter.remind')
      .executeTakeFirstOrThrow()
    if (Number(due.n) !== DUE_AT_ONCE)
      throw new Error(`${due.n} reminder jobs queued, expected ${DUE_AT_ONCE}`)
  } finally {
    await database.close()
  }
}

/**
 * The floor of row (b): the same reminders, read back from the mail jobs the worker queued, sent by a
 * bare nodemailer loop in its own process (bench/mail-floor.ts, as the mail row's floor), timed from
 * its start line to the sink's last acceptance.
 */
async function mailFloor(sink: SmtpSink, dir: string, databaseUrl: string): Promise<number> {
  const database = openBenchDatabase(databaseUrl)
  let messages: Array<{ id: string; message: unknown }>
  try {
    const rows = await database.db
      .selectFrom('jobs')
      .select(['id', 'payload'])
      .where('kind', '=', 'mail.send')
      .where('state', '=', 'done')
      .where('payload', 'like', '%Reminder:%')
      .orderBy('id')
      .execute()
    messages = rows.map((r) => ({ id: r.id, message: JSON.parse(r.payload) }))
  } finally {
    await database.close()
  }
  if (messages.length !== DUE_AT_ONCE)
    throw new Error(`${messages.length} reminder mails found for the floor, expected ${DUE_AT_ONCE}`)
  const file = join(dir, 'reminders.json')
  await writeFile(file, JSON.stringify(messages))
  sink.reset()
  const floor = await timedRun(
    dir,
    'mail-floor',
    ['--import', 'tsx', 'bench/mail-floor.ts', file, sink.url, MAIL_FROM],
    {},
    () => sink.waitForDistinct(DUE_AT_ONCE, 180_000),
  )
  return Math.max(...sink.arrivals.map((a) => a.at - floor.startedAt))
}

/** Row (b): 1 000 reminders due at once, from the worker's start line to the sink's 1 000th. */
async function dueAtOnce(sink: SmtpSink, databaseUrl: string | null, engine: SeedEngine) {
  const paraph = await startParaph(databaseUrl, { REMINDER_HOUR_SECONDS: '1' })
  const dir = await mkdtemp(join(tmpdir(), 'paraph-bench-reminders-'))
  try {
    await queueDueReminders(paraph)
    await sleep(1500)
    sink.reset()
    const run = await timedRun(
      dir,
      'paraph-worker',
      ['bin/paraph.mjs', 'worker'],
      workerEnv(paraph.databaseUrl!, dir, { SMTP_URL: sink.url, REMINDER_HOUR_SECONDS: '1' }),
      () => sink.waitForDistinct(DUE_AT_ONCE, 180_000),
    )
    const latencies = sink.arrivals.map((a) => a.at - run.startedAt)
    const totalMs = Math.max(...latencies)
    const distinct = sink.distinct()
    const floorMs = await mailFloor(sink, dir, paraph.databaseUrl!)
    return {
      scenario: NAME,
      case: `${engine} ${count(DUE_AT_ONCE)} due at once → SMTP`,
      figures: figures(
        distinct,
        DUE_AT_ONCE,
        `${DUE_AT_ONCE} due`,
        latencies,
        run.cpuMicros === null ? null : run.cpuMicros / DUE_AT_ONCE,
      ),
      reference: `floor ${(floorMs / 1000).toFixed(2)} s (${((DUE_AT_ONCE * 1000) / floorMs).toFixed(0)} mails/s)`,
      notes: [
        `${engine}: all ${DUE_AT_ONCE} reminders accepted ${(totalMs / 1000).toFixed(2)} s after the worker's start line (${((DUE_AT_ONCE * 1000) / totalMs).toFixed(0)}/s; job → rendered mail → mail job → SMTP, WORKER_CONCURRENCY ${process.env.WORKER_CONCURRENCY ?? 'default'}); ${sink.arrivals.length - distinct} duplicate(s); the floor, a bare nodemailer loop sending the same ${DUE_AT_ONCE} reminders one after another: ${(floorMs / 1000).toFixed(2)} s`,
      ],
      judged: { label: 'all sent', value: totalMs, max: SEND_LIMIT_MS, unit: 'ms' },
    } satisfies LimitRow
  } finally {
    await paraph.stop()
    await rm(dir, { recursive: true, force: true })
  }
}

/** `use` on two throwaway schemas, dropped afterwards; null when PostgreSQL is unreachable. */
async function inTwoSchemas<T>(url: string, use: (a: string, b: string) => Promise<T>): Promise<T | null> {
  if (!(await isReachable(url))) return null
  const a = await createBenchSchema(url)
  const b = await createBenchSchema(url)
  try {
    return await use(a.url, b.url)
  } finally {
    await Promise.allSettled([a.drop(), b.drop()])
  }
}

export const remindersScenario: LimitScenario = {
  kind: 'limit',
  name: NAME,
  description:
    '(a) paraph worker on 100 000 submissions with a reminder job each due over the coming week, against a worker on an empty database; (b) 1 000 reminders due at once sent to a local SMTP server',
  goal: `(a) worker CPU per minute with none due within ${MAX_IDLE_EXCESS} % of the idle worker's; (b) all ${DUE_AT_ONCE} reminders accepted by the server < ${SEND_LIMIT_MS / 1000} s after the worker started`,
  run: async (ctx: BenchContext) => {
    const only = process.env.PARAPH_REMINDER_ROWS
    const rows: Array<LimitRow | SkippedRow> = []
    if (only !== 'b') await scheduledRows(ctx, rows)
    if (only !== 'a') await dueRows(ctx, rows)
    return rows
  },
}

async function scheduledRows(ctx: BenchContext, rows: Array<LimitRow | SkippedRow>): Promise<void> {
  const skip = (which: string, error: unknown) =>
    rows.push({
      scenario: NAME,
      case: which,
      skipped: error instanceof Error ? error.message : String(error),
    })
  const sqliteDir = await mkdtemp(join(tmpdir(), 'paraph-bench-reminders-db-'))
  try {
    rows.push(
      await idleCost('sqlite', {
        idle: `sqlite:${join(sqliteDir, 'idle.db')}`,
        loaded: `sqlite:${join(sqliteDir, 'loaded.db')}`,
      }),
    )
  } catch (error) {
    skip('sqlite scheduled', error)
  } finally {
    await rm(sqliteDir, { recursive: true, force: true })
  }
  try {
    const row = await inTwoSchemas(ctx.postgresUrl, (idle, loaded) => idleCost('postgres', { idle, loaded }))
    rows.push(row ?? { scenario: NAME, case: 'postgres scheduled', skipped: 'PostgreSQL unreachable' })
  } catch (error) {
    skip('postgres scheduled', error)
  }
}

async function dueRows(ctx: BenchContext, rows: Array<LimitRow | SkippedRow>): Promise<void> {
  const sink = await SmtpSink.start()
  try {
    rows.push(await dueAtOnce(sink, null, 'sqlite'))
    const postgres = await inThrowawaySchema(ctx.postgresUrl, (url) => dueAtOnce(sink, url, 'postgres'))
    rows.push(postgres ?? { scenario: NAME, case: 'postgres due at once', skipped: 'PostgreSQL unreachable' })
  } finally {
    await sink.stop()
  }
}
