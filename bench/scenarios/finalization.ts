// Finalization of a 1-page and a 100-page submission with 3 signers (each a signature
// image and a text value), against `paraph serve` with its worker. Timed from the start of the
// LAST sign request until GET /v1/submissions/{id} first reads `completed` (polled every 2 ms from
// this process), so the sealed final PDF and the sealed audit trail are stored. The submission's
// `completed_at` is taken when finalization starts (before the PDFs are made), so completed_at minus
// the last sign request's start is the pickup delay (sign request + worker waking), printed apart.
// Beside it, the floor: bare pdf-lib stamping the same values and a bare RSA signature of the bytes.
import { readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { startLocalTsa } from '../../test/fixtures/local-tsa.ts'
import { a4, hundredPages } from '../../test/fixtures/pdfs.ts'
import { stampAndSignIncrementalMs, stampAndSignMs } from '../finalize-reference.ts'
import { inThrowawaySchema } from '../postgres.ts'
import {
  type BenchContext,
  type LimitRow,
  type LimitScenario,
  oneAtATimeFigures,
  type SkippedRow,
} from '../scenario.ts'
import { type RunningServer, startParaph } from '../servers.ts'
import { createToSign, SIGNATURE_PNG, SIGNER_TEXTS, sign, signBody, submissionState } from '../signing.ts'
import { percentile } from '../stats.ts'
import { inline } from '../submissions.ts'

const NAME = 'finalization to the sealed PDF, 3 parties'
const POLL_MS = 2
const DEADLINE_MS = 60_000

interface FinalizationCase {
  label: string
  pdf: () => Promise<Uint8Array>
  warmUps: number
  runs: number
  limit: (floorMs: number) => { max: number; derivation?: string }
}

const CASES: FinalizationCase[] = [
  { label: '1 page', pdf: a4, warmUps: 3, runs: 20, limit: () => ({ max: 150 }) },
  {
    label: '100 pages 3.3 MB',
    pdf: () => hundredPages(3_300_000),
    warmUps: 2,
    runs: 10,
    limit: (floorMs) => ({ max: 1.5 * floorMs, derivation: '1.5 × floor' }),
  },
]

interface OneFinalization {
  /** Last sign request's start → first GET reading `completed`. */
  totalMs: number
  /** Last sign request's round trip. */
  signMs: number
  /** Last sign request's start → completed_at (when the worker began finalizing). */
  pickupMs: number
}

async function finalizeOnce(
  server: RunningServer,
  pdfBase64: ReturnType<typeof inline>,
): Promise<OneFinalization> {
  const { id, slugs } = await createToSign(server, pdfBase64)
  await sign(server, slugs[0]!, signBody(0))
  await sign(server, slugs[1]!, signBody(1))
  // The jobs of the first two signatures (the next signer's mail, events) run now, not in the timing.
  await sleep(100)
  const startedAt = Date.now()
  const started = performance.now()
  const signMs = await sign(server, slugs[2]!, signBody(2))
  for (;;) {
    const state = await submissionState(server, id)
    if (state.status === 'completed') {
      const totalMs = performance.now() - started
      const pickupMs = Date.parse(state.completed_at ?? '') - startedAt
      return { totalMs, signMs, pickupMs }
    }
    if (performance.now() - started > DEADLINE_MS) {
      throw new Error(`submission ${id} not completed within ${DEADLINE_MS} ms (status ${state.status})`)
    }
    await sleep(POLL_MS)
  }
}

const fixed = (n: number) => n.toFixed(1)
const FINALIZED_LOG_LINE = 'final PDF and audit trail sealed and stored'

/**
 * Where the time went, from the worker's own log line (finalize-submission.ts) for the last `count`
 * finalizations: the median of each step in the finalizer child, and of storing the files.
 */
function stepMedians(server: RunningServer, count: number): string {
  const lines = readFileSync(server.process.logFile, 'utf8').split('\n')
  const steps = lines
    .filter((line) => line.includes(FINALIZED_LOG_LINE))
    .slice(-count)
    .map((line) => (JSON.parse(line) as { ms: Record<string, number> }).ms)
  if (steps.length === 0) return 'no finalization log line found'
  return Object.keys(steps[0]!)
    .map(
      (step) =>
        `${step} ${fixed(
          percentile(
            steps.map((s) => s[step]!),
            50,
          ),
        )}`,
    )
    .join(', ')
}

interface CaseResult {
  row: LimitRow
  p50Ms: number
  floorMs: number
}

async function runCase(server: RunningServer, engine: string, spec: FinalizationCase): Promise<CaseResult> {
  const pdf = await spec.pdf()
  const source = inline(pdf)
  for (let i = 0; i < spec.warmUps; i++) await finalizeOnce(server, source)
  const runs: OneFinalization[] = []
  for (let i = 0; i < spec.runs; i++) runs.push(await finalizeOnce(server, source))
  const floorMs = await stampAndSignMs(pdf, SIGNATURE_PNG, SIGNER_TEXTS)
  const incrementalFloorMs = await stampAndSignIncrementalMs(pdf, SIGNATURE_PNG, SIGNER_TEXTS)
  const totals = runs.map((r) => r.totalMs)
  const p = (values: number[], q: number) => percentile(values, q)
  const pickups = runs.map((r) => r.pickupMs)
  const signs = runs.map((r) => r.signMs)
  const row: LimitRow = {
    scenario: NAME,
    case: `${engine}, ${spec.label}`,
    figures: oneAtATimeFigures(totals),
    reference: `floor ${fixed(floorMs)} ms`,
    notes: [
      `last sign → completed: p50 ${fixed(p(totals, 50))} ms, p90 ${fixed(p(totals, 90))} ms, max ${fixed(Math.max(...totals))} ms over ${runs.length} (GET polled every ${POLL_MS} ms)`,
      `of which pickup (last sign start → completed_at, when finalizing began): p50 ${fixed(p(pickups, 50))} ms, p90 ${fixed(p(pickups, 90))} ms; last sign request p50 ${fixed(p(signs, 50))} ms`,
      `steps as the worker logs them, p50 ms: ${stepMedians(server, runs.length)}`,
      `bare MuPDF stamping the same and saving incrementally, plus the RSA signature: ${fixed(incrementalFloorMs)} ms (the chosen engine's least work; the judged floor stays the issue's pdf-lib one)`,
    ],
    judged: { label: 'p50', value: p(totals, 50), unit: 'ms', ...spec.limit(floorMs) },
  }
  return { row, p50Ms: p(totals, 50), floorMs }
}

/**
 * What the 100-page row is held against, beside what a finalization cannot go below: the 1-page
 * finalization of the same run. The audit trail, the two seals' signing, the readers' check of the
 * written file, storing, completing and the job's pickup do not grow with pages, so no 100-page
 * finalization is faster than a 1-page one; the per-page part is compared with the floor's.
 */
function pageCountNotes(one: CaseResult, hundred: CaseResult): string[] {
  const limit = 1.5 * hundred.floorMs
  const perPage = hundred.p50Ms - one.p50Ms
  const floorPerPage = hundred.floorMs - one.floorMs
  return [
    `lower bound: this run's 1-page p50 ${fixed(one.p50Ms)} ms (fixed work) ${one.p50Ms >= limit ? '≥' : '<'} 1.5 × floor ${fixed(limit)} ms${one.p50Ms >= limit ? ': the target is below the fixed work alone, out of reach' : ''}`,
    `the 99 more pages cost ${fixed(perPage)} ms (100-page p50 − 1-page p50), the floor's ${fixed(floorPerPage)} ms: ${fixed(perPage / Math.max(floorPerPage, Number.MIN_VALUE))} × floor`,
  ]
}

/** The 1-page case with TSA_URL set, both seals time-stamped (PAdES B-T). */
const TSA_CASE: FinalizationCase = { ...CASES[0]!, label: '1 page, local TSA (B-T)' }

async function runEngine(databaseUrl: string | null, engine: string): Promise<LimitRow[]> {
  const rows: LimitRow[] = []
  const server = await startParaph(databaseUrl, {}, [], { worker: true })
  try {
    const [one, hundred] = [
      await runCase(server, engine, CASES[0]!),
      await runCase(server, engine, CASES[1]!),
    ]
    hundred.row.notes.push(...pageCountNotes(one, hundred))
    rows.push(one.row, hundred.row)
  } finally {
    await server.stop()
  }
  return rows
}

/** On a database of its own: `paraph serve` makes its test key only in an empty one. */
async function runWithTsa(databaseUrl: string | null, engine: string): Promise<LimitRow[]> {
  // The local TSA answers with `openssl ts -reply`, as the tests' does: a real RFC 3161 round trip.
  const tsa = await startLocalTsa()
  const server = await startParaph(databaseUrl, { TSA_URL: tsa.url }, [], { worker: true })
  try {
    return [(await runCase(server, engine, TSA_CASE)).row]
  } finally {
    await server.stop()
    await tsa.close()
  }
}

export const finalizationScenario: LimitScenario = {
  kind: 'limit',
  name: NAME,
  description:
    'paraph serve with its worker; last sign request → submission reads completed (sealed final PDF and sealed audit trail stored)',
  goal: '1 page p50 < 150 ms, with a local TSA too; 100 pages p50 < 1.5 × floor (bare pdf-lib stamping 3 PNGs + 3 texts and a footer line on every page, one save, plus an RSA-2048 signature of the bytes)',
  run: async (ctx: BenchContext) => {
    const rows: Array<LimitRow | SkippedRow> = await runEngine(null, 'sqlite')
    rows.push(...(await runWithTsa(null, 'sqlite')))
    const postgres = await inThrowawaySchema(ctx.postgresUrl, (url) => runEngine(url, 'postgres'))
    rows.push(...(postgres ?? [{ scenario: NAME, case: 'postgres', skipped: 'PostgreSQL unreachable' }]))
    const stamped = await inThrowawaySchema(ctx.postgresUrl, (url) => runWithTsa(url, 'postgres'))
    rows.push(...(stamped ?? []))
    return rows
  },
}
