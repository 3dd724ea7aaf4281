// 1 000 signing requests queued, then all handed to a local SMTP server. The requests are
// queued through the real API (`paraph serve --no-worker`: 20 submissions of 50 signers in random
// order, each signer one mail job); then `paraph worker` starts with SMTP_URL and is timed from its
// "paraph worker started" log line (after its start-up: bundling, migrations, seal certificate) to
// the server's acceptance of the 1 000th distinct message. Beside it, the floor measured the same way
// in the same run: a bare nodemailer loop in its own process sending the same 1 000 messages (read
// from Paraph's outbox) to the same server. The server (smtp-sink.ts) lives in this process.
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { MailMessage } from '../../src/mail/mail-job.ts'
import { a4 } from '../../test/fixtures/pdfs.ts'
import { inThrowawaySchema } from '../postgres.ts'
import type { BenchContext, LimitRow, LimitScenario, SkippedRow } from '../scenario.ts'
import { type RunningServer, startParaph } from '../servers.ts'
import { type Arrival, SmtpSink } from '../smtp-sink.ts'
import { percentile } from '../stats.ts'
import { FROM_PDF_PATH, inline, jsonHeaders, type PdfSource } from '../submissions.ts'
import { openBenchDatabase, type TimedRun, timedRun } from '../worker-runs.ts'

const NAME = 'mail: 1 000 signing requests to SMTP'
const MESSAGES = 1000
const PER_SUBMISSION = 50
const LIMIT_MS = 20_000
const DEADLINE_MS = 180_000
const MAIL_FROM = 'Paraph Bench <bench@paraph.example>'

/** One submission of 50 signers in random order: 50 signing requests queued with it. */
function body(source: PdfSource, batch: number): Record<string, unknown> {
  const roles = Array.from({ length: PER_SUBMISSION }, (_, i) => `r${i}`)
  const fields = roles.map((role, i) => ({
    name: `S${i}`,
    role,
    areas: [{ page: 1, x: 0.05 + (i % 5) * 0.19, y: 0.04 + Math.floor(i / 5) * 0.095, w: 0.15, h: 0.04 }],
  }))
  return {
    signing_order: 'random',
    documents: [{ name: `Contract ${batch}`, ...source, fields }],
    submitters: roles.map((role, i) => ({
      role,
      email: `s${batch}-${i}@example.eu`,
      name: `Signer ${batch}-${i}`,
    })),
  }
}

async function queueRequests(server: RunningServer): Promise<void> {
  const source = inline(await a4())
  for (let batch = 0; batch < MESSAGES / PER_SUBMISSION; batch++) {
    const response = await fetch(`${server.process.baseUrl}${FROM_PDF_PATH}`, {
      method: 'POST',
      headers: { ...jsonHeaders(server), 'idempotency-key': randomUUID() },
      body: JSON.stringify(body(source, batch)),
    })
    if (response.status !== 201)
      throw new Error(`from_pdf answered ${response.status}: ${await response.text()}`)
  }
}

/** The queued mail jobs, read from Paraph's database: what the floor sends. */
async function outbox(databaseUrl: string): Promise<Array<{ id: string; message: MailMessage }>> {
  const database = openBenchDatabase(databaseUrl)
  try {
    const rows = await database.db
      .selectFrom('jobs')
      .select(['id', 'payload', 'state'])
      .where('kind', '=', 'mail.send')
      .orderBy('run_at')
      .orderBy('id')
      .execute()
    if (rows.some((r) => r.state !== 'pending')) throw new Error('a mail job ran before the worker started')
    return rows.map((r) => ({ id: r.id, message: JSON.parse(r.payload) as MailMessage }))
  } finally {
    await database.close()
  }
}

interface Run extends TimedRun {
  arrivals: Arrival[]
}

/** One drain of the queued mails by `paraph worker` or the floor, timed from its start line. */
async function drain(sink: SmtpSink, dir: string, name: string, args: string[], env: Record<string, string>) {
  sink.reset()
  const run = await timedRun(dir, name, args, env, () => sink.waitForDistinct(MESSAGES, DEADLINE_MS))
  return { ...run, arrivals: [...sink.arrivals] } as Run
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`
const perSecond = (ms: number) => `${((MESSAGES * 1000) / ms).toFixed(0)} msg/s`

async function runEngine(sink: SmtpSink, databaseUrl: string | null, engine: string): Promise<LimitRow> {
  const paraph = await startParaph(databaseUrl, { SMTP_URL: sink.url, MAIL_FROM })
  const dir = await mkdtemp(join(tmpdir(), 'paraph-bench-mail-'))
  try {
    await queueRequests(paraph)
    const queued = await outbox(paraph.databaseUrl!)
    if (queued.length !== MESSAGES) throw new Error(`${queued.length} mail jobs queued, expected ${MESSAGES}`)
    const worker = await drain(sink, dir, 'paraph-worker', ['bin/paraph.mjs', 'worker'], {
      PUBLIC_URL: 'http://127.0.0.1:8080',
      DATA_DIR: dir,
      DATABASE_URL: paraph.databaseUrl!,
      PARAPH_SECRET: randomBytes(20).toString('hex'),
      SMTP_URL: sink.url,
      MAIL_FROM,
      LOG_LEVEL: 'info',
    })
    const file = join(dir, 'messages.json')
    await writeFile(file, JSON.stringify(queued))
    const floor = await drain(
      sink,
      dir,
      'mail-floor',
      ['--import', 'tsx', 'bench/mail-floor.ts', file, sink.url, MAIL_FROM],
      {},
    )
    const latencies = worker.arrivals.map((a) => a.at - worker.startedAt)
    const totalMs = Math.max(...latencies)
    const floorMs = Math.max(...floor.arrivals.map((a) => a.at - floor.startedAt))
    const distinct = new Set(worker.arrivals.map((a) => a.messageId)).size
    return {
      scenario: NAME,
      case: engine,
      figures: {
        ok: distinct,
        sent: MESSAGES,
        rps: (MESSAGES * 1000) / totalMs,
        latencyLoad: `${MESSAGES} queued`,
        p50Ms: percentile(latencies, 50),
        p99Ms: percentile(latencies, 99),
        maxMs: totalMs,
        cpuMicrosPerRequest: worker.cpuMicros === null ? null : worker.cpuMicros / MESSAGES,
        childCpuMicrosPerRequest: null,
      },
      reference: `floor ${seconds(floorMs)} (${perSecond(floorMs)})`,
      notes: [
        `all ${MESSAGES} handed over ${seconds(totalMs)} after the worker's start line (${perSecond(totalMs)}), ${(totalMs / floorMs).toFixed(2)} × the floor's ${seconds(floorMs)} (${perSecond(floorMs)}); first one after ${(Math.min(...latencies)).toFixed(0)} ms`,
        `${worker.arrivals.length - distinct} duplicate(s); worker start-up before its start line ${worker.startUpMs} ms (not timed); p50/p99/max: worker start → each message's acceptance`,
      ],
      judged: { label: 'all handed', value: totalMs, max: LIMIT_MS, unit: 'ms' },
    }
  } finally {
    await paraph.stop()
    await rm(dir, { recursive: true, force: true })
  }
}

export const mailScenario: LimitScenario = {
  kind: 'limit',
  name: NAME,
  description:
    'paraph worker with SMTP_URL draining 1 000 queued signing requests (20 submissions × 50 signers, random order) into a local SMTP server',
  goal: `all ${MESSAGES} accepted by the server < ${LIMIT_MS / 1000} s after the worker started; floor: a bare nodemailer loop sending the same messages to the same server`,
  run: async (ctx: BenchContext) => {
    const sink = await SmtpSink.start()
    try {
      const rows: Array<LimitRow | SkippedRow> = [await runEngine(sink, null, 'sqlite')]
      const postgres = await inThrowawaySchema(ctx.postgresUrl, (url) => runEngine(sink, url, 'postgres'))
      rows.push(postgres ?? { scenario: NAME, case: 'postgres', skipped: 'PostgreSQL unreachable' })
      return rows
    } finally {
      await sink.stop()
    }
  },
}
