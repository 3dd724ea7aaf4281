// Issue #35, bulk send at its limit (docs/api.md#bulk-send): 10 000 JSON rows of a template with two
// roles (a signature each) and three prefilled fields, send_email true, through
// `paraph serve --no-worker` with SMTP_URL at the bench's SMTP sink. Per engine:
// (a) the dry run of the 10 000 rows, three times, target < 5 s;
// (b) the bulk send itself, ONE `paraph worker` (started first, timed from the POST to the job's
//     `completed`, polled every 50 ms), target < 60 s on SQLite and < 90 s on PostgreSQL; beside it
//     the floor of the same run: the same 10 000 submissions made one by one with
//     POST /v1/submissions (10 at once) on a fresh `paraph serve` of the same engine;
// (c) the worker's peak RSS (VmHWM of /proc/PID/status when the job completed), target < 300 MB.
// The worker sends the signing requests (one per row: the order is `preserved`) while it creates
// rows, as in real use; how many reached the sink by the end is in the notes.
// PARAPH_BULK_ROWS shrinks the run while developing (the targets are for 10 000).
import { randomBytes, randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import {
  threeFieldRows,
  threeFieldSubmissionBody,
  threeFieldTemplateBody,
} from '../../test/bulk-send-rows.ts'
import { a4 } from '../../test/fixtures/pdfs.ts'
import { createBenchSchema, isReachable } from '../postgres.ts'
import type { ServerProcess } from '../processes.ts'
import {
  type BenchContext,
  type LimitRow,
  type LimitScenario,
  oneAtATimeFigures,
  oneRequestFigures,
  type SkippedRow,
} from '../scenario.ts'
import { type RunningServer, startParaph } from '../servers.ts'
import { SmtpSink } from '../smtp-sink.ts'
import { jsonHeaders } from '../submissions.ts'
import { openBenchDatabase, timedRun } from '../worker-runs.ts'

const NAME = 'bulk send, 10 000 rows'
const DRY_RUN_MS = 5_000
const COMPLETED_MS = { sqlite: 60_000, postgres: 90_000 } as const
const MAX_RSS_MB = 300
const DRY_RUNS = 3
const FLOOR_AT_ONCE = 10
const DEADLINE_MS = 600_000
const MAIL_FROM = 'Paraph Bench <bench@paraph.example>'

type Engine = keyof typeof COMPLETED_MS

const rowCount = () => Number(process.env.PARAPH_BULK_ROWS ?? 10_000)
const count = (n: number) => n.toLocaleString('en-US')
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`

async function call(server: RunningServer, method: string, path: string, body?: string) {
  const response = await fetch(`${server.process.baseUrl}${path}`, {
    method,
    headers: { ...jsonHeaders(server), ...(body ? { 'idempotency-key': randomUUID() } : {}) },
    body,
  })
  return { status: response.status, text: await response.text() }
}

async function expect(server: RunningServer, status: number, method: string, path: string, body?: string) {
  const answer = await call(server, method, path, body)
  if (answer.status !== status)
    throw new Error(`${method} ${path} answered ${answer.status}: ${answer.text.slice(0, 300)}`)
  return JSON.parse(answer.text) as Record<string, unknown>
}

async function createTemplate(server: RunningServer): Promise<string> {
  const pdf = Buffer.from(await a4()).toString('base64')
  const template = await expect(
    server,
    201,
    'POST',
    '/v1/templates',
    JSON.stringify(threeFieldTemplateBody(pdf)),
  )
  return String(template.id)
}

/** Row (a): the dry run of every row, DRY_RUNS times one after another; each must find no error. */
async function dryRuns(server: RunningServer, templateId: string, n: number): Promise<number[]> {
  const body = JSON.stringify({
    template_id: templateId,
    rows: threeFieldRows(n),
    send_email: true,
    dry_run: true,
  })
  const times: number[] = []
  for (let i = 0; i < DRY_RUNS; i++) {
    const started = performance.now()
    const check = await expect(server, 200, 'POST', '/v1/bulk_sends', body)
    times.push(performance.now() - started)
    if (check.rows !== n || (check.errors as unknown[]).length !== 0)
      throw new Error(`the dry run found errors: ${JSON.stringify(check).slice(0, 300)}`)
  }
  return times
}

/** VmHWM (peak resident set) of a live process, in KiB. */
function peakRssKiB(child: ServerProcess): number {
  const status = readFileSync(`/proc/${child.child.pid}/status`, 'utf8')
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(status)
  if (!match) throw new Error(`no VmHWM in /proc/${child.child.pid}/status`)
  return Number(match[1])
}

/** A pause longer than this between two rows' creations is the worker doing something else. */
const PAUSE_MS = 1000

/**
 * How the rows' creation was spread, from the submissions' created_at (the worker's clock): the
 * time spent making rows, and the pauses between the job's slices, when the worker ran the mails
 * and events the rows queued (older than the next slice's job, so claimed first).
 */
async function makingTime(databaseUrl: string, bulkSendId: string) {
  const database = openBenchDatabase(databaseUrl)
  try {
    const rows = await database.db
      .selectFrom('submissions')
      .select('created_at')
      .where('bulk_send_id', '=', bulkSendId)
      .orderBy('created_at')
      .execute()
    const times = rows.map((r) => new Date(r.created_at).getTime())
    const gaps = times.slice(1).map((t, i) => t - times[i]!)
    const pauses = gaps.filter((gap) => gap > PAUSE_MS)
    const pausedMs = pauses.reduce((a, b) => a + b, 0)
    return { ms: gaps.reduce((a, b) => a + b, 0) - pausedMs, pauses: pauses.length, pausedMs }
  } finally {
    await database.close()
  }
}

interface BulkRun {
  ms: number
  /** POST → the poll that first saw every row created (the job completes at its next run). */
  allCreatedMs: number
  /** From the submissions' created_at: time spent making rows, and the pauses between slices. */
  making: { ms: number; pauses: number; pausedMs: number }
  peakKiB: number
  cpuMicros: number | null
  status: string
  mailsByTheEnd: number
}

/** Row (b): one worker running, the POST, then GET every 50 ms until the job has ended. */
async function bulkRun(
  server: RunningServer,
  sink: SmtpSink,
  templateId: string,
  n: number,
): Promise<BulkRun> {
  const dir = await mkdtemp(join(tmpdir(), 'paraph-bench-bulk-'))
  const body = JSON.stringify({ template_id: templateId, rows: threeFieldRows(n), send_email: true })
  let ms = 0
  let allCreatedMs = 0
  let making = { ms: 0, pauses: 0, pausedMs: 0 }
  let peakKiB = 0
  let status = ''
  let mailsByTheEnd = 0
  try {
    sink.reset()
    const env = {
      PUBLIC_URL: 'http://127.0.0.1:8080',
      DATA_DIR: dir,
      DATABASE_URL: server.databaseUrl!,
      PARAPH_SECRET: randomBytes(20).toString('hex'),
      SMTP_URL: sink.url,
      MAIL_FROM,
      LOG_LEVEL: 'info',
      ...(process.env.WORKER_CONCURRENCY ? { WORKER_CONCURRENCY: process.env.WORKER_CONCURRENCY } : {}),
    }
    const run = await timedRun(dir, 'paraph-worker', ['bin/paraph.mjs', 'worker'], env, async (child) => {
      const started = performance.now()
      const job = await expect(server, 202, 'POST', '/v1/bulk_sends', body)
      let before = { at: performance.now(), created: 0 }
      for (;;) {
        const now = await expect(server, 200, 'GET', `/v1/bulk_sends/${job.id}`)
        const seen = { at: performance.now(), created: (now.counts as { created: number }).created }
        if (seen.created === n && before.created < n) allCreatedMs = seen.at - started
        before = seen
        status = String(now.status)
        if (status !== 'queued' && status !== 'running') break
        if (performance.now() - started > DEADLINE_MS)
          throw new Error(`not completed within ${DEADLINE_MS / 1000} s: ${JSON.stringify(now.counts)}`)
        await sleep(50)
      }
      ms = performance.now() - started
      peakKiB = peakRssKiB(child)
      mailsByTheEnd = sink.distinct()
      making = await makingTime(server.databaseUrl!, String(job.id))
    })
    return { ms, allCreatedMs, making, peakKiB, cpuMicros: run.cpuMicros, status, mailsByTheEnd }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** The floor of (b): the same submissions by POST /v1/submissions, FLOOR_AT_ONCE in flight. */
async function floorRun(server: RunningServer, templateId: string, n: number): Promise<number> {
  let next = 1
  const lane = async () => {
    while (next <= n) {
      const i = next++
      await expect(
        server,
        201,
        'POST',
        '/v1/submissions',
        JSON.stringify(threeFieldSubmissionBody(templateId, i, true)),
      )
    }
  }
  const started = performance.now()
  await Promise.all(Array.from({ length: FLOOR_AT_ONCE }, lane))
  return performance.now() - started
}

async function runEngine(
  sink: SmtpSink,
  engine: Engine,
  urls: { bulk: string | null; floor: string | null },
): Promise<LimitRow[]> {
  const n = rowCount()
  const extra = { SMTP_URL: sink.url, MAIL_FROM }
  const paraph = await startParaph(urls.bulk, extra)
  let dry: number[]
  let bulk: BulkRun
  try {
    const templateId = await createTemplate(paraph)
    dry = await dryRuns(paraph, templateId, n)
    bulk = await bulkRun(paraph, sink, templateId, n)
  } finally {
    await paraph.stop()
  }
  const floorServer = await startParaph(urls.floor, extra)
  let floorMs: number
  try {
    floorMs = await floorRun(floorServer, await createTemplate(floorServer), n)
  } finally {
    await floorServer.stop()
  }
  const rate = (ms: number) => `${((n * 1000) / ms).toFixed(0)} submissions/s`
  const floor = `floor: the same ${count(n)} by POST /v1/submissions, ${FLOOR_AT_ONCE} at once, one API process: ${seconds(floorMs)} (${rate(floorMs)})`
  const dryMedian = [...dry].sort((a, b) => a - b)[Math.floor(dry.length / 2)]!
  return [
    {
      scenario: NAME,
      case: `${engine} dry run of ${count(n)} rows`,
      figures: oneAtATimeFigures(dry),
      reference: `${DRY_RUNS} runs: ${dry.map(seconds).join(', ')}`,
      notes: [],
      judged: { label: 'dry run p50', value: dryMedian, max: DRY_RUN_MS, unit: 'ms' },
    },
    {
      scenario: NAME,
      case: `${engine} ${count(n)} rows → completed, one worker`,
      figures: {
        ...oneRequestFigures(bulk.ms),
        ok: bulk.status === 'completed' ? 1 : 0,
        cpuMicrosPerRequest: bulk.cpuMicros === null ? null : bulk.cpuMicros / n,
      },
      reference: floor,
      notes: [
        `${engine}: POST → ${bulk.status} in ${seconds(bulk.ms)} (${rate(bulk.ms)}), the last row created at ${seconds(bulk.allCreatedMs)}; from the first row to the last the worker spent ${seconds(bulk.making.ms)} making rows (${rate(bulk.making.ms)}) and ${seconds(bulk.making.pausedMs)} in ${bulk.making.pauses} pauses over ${PAUSE_MS / 1000} s between slices, running the mails and events the rows queued; ${floor}; the worker also sent mails meanwhile: ${count(bulk.mailsByTheEnd)} of ${count(n)} signing requests had reached the SMTP sink at the end; worker CPU ${bulk.cpuMicros === null ? 'n/a' : `${(bulk.cpuMicros / n / 1000).toFixed(2)} ms per row`}`,
      ],
      judged: { label: 'to completed', value: bulk.ms, max: COMPLETED_MS[engine], unit: 'ms' },
    },
    {
      scenario: NAME,
      case: `${engine} the worker's peak RSS`,
      figures: { ...oneRequestFigures(0), p50Ms: null, p99Ms: null, maxMs: null, latencyLoad: 'one' },
      reference: `VmHWM of the worker process when the job completed`,
      notes: [],
      judged: { label: 'peak RSS', value: bulk.peakKiB / 1024, max: MAX_RSS_MB, unit: 'MB' },
    },
  ]
}

/** Two throwaway schemas (the bulk run's, the floor's), dropped afterwards; null when unreachable. */
async function inTwoSchemas<T>(
  url: string,
  use: (bulk: string, floor: string) => Promise<T>,
): Promise<T | null> {
  if (!(await isReachable(url))) return null
  const bulk = await createBenchSchema(url)
  const floor = await createBenchSchema(url)
  try {
    return await use(bulk.url, floor.url)
  } finally {
    await Promise.allSettled([bulk.drop(), floor.drop()])
  }
}

export const bulkSendScenario: LimitScenario = {
  kind: 'limit',
  name: NAME,
  description:
    'POST /v1/bulk_sends of 10 000 JSON rows (two roles, three prefilled fields, send_email true): the dry run; the rows created by one paraph worker, beside the same submissions made one by one through the API; the worker peak RSS',
  goal: `dry run < ${DRY_RUN_MS / 1000} s; all created < ${COMPLETED_MS.sqlite / 1000} s on SQLite, < ${COMPLETED_MS.postgres / 1000} s on PostgreSQL; worker peak RSS < ${MAX_RSS_MB} MB`,
  run: async (ctx: BenchContext) => {
    const rows: Array<LimitRow | SkippedRow> = []
    const skip = (engine: Engine, error: unknown) =>
      rows.push({
        scenario: NAME,
        case: engine,
        skipped: error instanceof Error ? error.message : String(error),
      })
    const sink = await SmtpSink.start()
    try {
      try {
        rows.push(...(await runEngine(sink, 'sqlite', { bulk: null, floor: null })))
      } catch (error) {
        skip('sqlite', error)
      }
      try {
        const postgres = await inTwoSchemas(ctx.postgresUrl, (bulk, floor) =>
          runEngine(sink, 'postgres', { bulk, floor }),
        )
        if (postgres) rows.push(...postgres)
        else rows.push({ scenario: NAME, case: 'postgres', skipped: 'PostgreSQL unreachable' })
      } catch (error) {
        skip('postgres', error)
      }
    } finally {
      await sink.stop()
    }
    return rows
  },
}
