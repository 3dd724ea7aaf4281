// What a bench scenario is and what it hands back: run.ts prints and judges every row the same way.
import type { LoadSummary } from './load.ts'
import { percentile } from './stats.ts'

/**
 * The least ratio of subject rps to baseline rps (both measured in the same run): a fixed share,
 * or a share of the ratio that the same case of a reference scenario reached in the same run
 * (the GET row against its floor, which shows what this machine leaves room for).
 */
export type MinRatio = number | { share: number; ofScenario: string }

/** Pass conditions of a row: the subject's closed-loop figures against the bare baseline's. */
export interface Target {
  minRatio: MinRatio
  /** Closed-loop p99 of the subject, in milliseconds. */
  maxP99Ms: number
}

export interface BenchContext {
  /** Connection string of the PostgreSQL server; each case creates a schema of its own in it. */
  postgresUrl: string
  /** Seconds per autocannon run. */
  warmUpSeconds: number
  measureSeconds: number
  /** Closed-loop rounds per server, alternating baseline and subject; measureSeconds is split among them. */
  rounds: number
  connections: number
  /** Fixed-arrival-rate run as a share of the baseline's closed-loop rps. */
  fixedRateShare: number
  /** Length of the soak's mixed load per engine (PARAPH_SOAK_SECONDS). */
  soakSeconds: number
  /** Submissions written into the loaded database of the volume scenario (PARAPH_VOLUME_SUBMISSIONS). */
  volumeSubmissions: number
}

/** One server measured: closed loop, then fixed arrival rate, then its RSS. */
export interface ServerFigures {
  label: string
  closed: LoadSummary
  /** rps of each closed-loop round, in the order they alternated with the other server's. */
  roundsRps: number[]
  /**
   * Server CPU (user + system) per request over the closed-loop rounds: the server's own cost,
   * whoever the bottleneck was (at the bare route's rates the load generator often is).
   */
  cpuMicrosPerRequest: number
  fixedRate: LoadSummary
  /** Server CPU per request at the fixed rate, which is the same for both servers: cost at equal load. */
  fixedRateCpuMicrosPerRequest: number
  rssKiB: number | null
}

export type SkippedRow = { scenario: string; case: string; skipped: string }

export type Row =
  | {
      scenario: string
      case: string
      baseline: ServerFigures
      subject: ServerFigures
      /** A control case of a judged scenario (e.g. two identical servers): shown, not judged. */
      reference?: boolean
    }
  | SkippedRow

interface PairScenarioBase {
  kind?: 'pair'
  name: string
  /** One line shown above the scenario's rows. */
  description: string
  run(ctx: BenchContext): Promise<Row[]>
}

/** Rows of Paraph beside the bare baseline server, judged on their rps ratio and p99. */
export interface JudgedPairScenario extends PairScenarioBase {
  target: Target
  reference?: undefined
}

/** A reference row (a floor or ceiling to read the others by): measured and shown, not judged. */
export interface ReferencePairScenario extends PairScenarioBase {
  reference: true
  target?: undefined
}

export type PairScenario = JudgedPairScenario | ReferencePairScenario

/** Paraph's figures for one case of a limit scenario; null where a figure does not apply. */
export interface LimitFigures {
  /** Requests answered with the expected status, and requests sent. */
  ok: number
  sent: number
  /** Closed-loop throughput, where it was measured. */
  rps: number | null
  /** The load p50, p99 and max were taken under, in words: "6.1/s" (open loop), "10 at once". */
  latencyLoad: string
  /** Measured in this process with performance.now(), so below a millisecond is kept; null: no timing (a size row). */
  p50Ms: number | null
  p99Ms: number | null
  maxMs: number | null
  /** Server CPU per request: its own, and that of its child processes (the PDF inspectors). */
  cpuMicrosPerRequest: number | null
  childCpuMicrosPerRequest: number | null
}

/** The figures of a row timing one request (a hostile input, a 5 MB document). */
export function oneRequestFigures(ms: number): LimitFigures {
  return {
    ok: 1,
    sent: 1,
    rps: null,
    latencyLoad: 'one',
    p50Ms: ms,
    p99Ms: ms,
    maxMs: ms,
    cpuMicrosPerRequest: null,
    childCpuMicrosPerRequest: null,
  }
}

/** The figures of a row timing requests sent one after another: `ms` is each one's time. */
export function oneAtATimeFigures(ms: number[]): LimitFigures {
  return {
    ok: ms.length,
    sent: ms.length,
    rps: null,
    latencyLoad: 'one at a time',
    p50Ms: percentile(ms, 50),
    p99Ms: percentile(ms, 99),
    maxMs: Math.max(...ms),
    cpuMicrosPerRequest: null,
    childCpuMicrosPerRequest: null,
  }
}

/**
 * A row held against a fixed limit rather than a baseline server: a creation's p50 against
 * pdf-lib's time on the same PDF, the peak RSS during big downloads.
 */
export interface LimitRow {
  scenario: string
  case: string
  figures: LimitFigures
  /** What the limit is derived from or compared with, measured in the same run, in words. */
  reference: string
  /** Further observations, printed under the table (samples taken, first failure…). */
  notes: string[]
  /** The judged figure: it passes when value < max; `derivation` says how max was computed. */
  judged: { label: string; value: number; max: number; unit: 'ms' | 'MB' | 'KB' | '%'; derivation?: string }
}

export interface LimitScenario {
  kind: 'limit'
  name: string
  description: string
  /** The targets in words, shown above the rows; each row carries its own number. */
  goal: string
  run(ctx: BenchContext): Promise<Array<LimitRow | SkippedRow>>
}

export type Scenario = PairScenario | LimitScenario
