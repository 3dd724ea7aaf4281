// What a bench scenario is and what it hands back: run.ts prints and judges every row the same way.
import type { LoadSummary } from './load.ts'

/** Pass conditions of a row: the subject's closed-loop figures against the bare baseline's. */
export interface Target {
  /** Subject rps divided by baseline rps, measured in the same run. */
  minRatio: number
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

export type Row =
  | { scenario: string; case: string; baseline: ServerFigures; subject: ServerFigures }
  | { scenario: string; case: string; skipped: string }

export interface Scenario {
  name: string
  /** One line shown above the scenario's rows. */
  description: string
  target: Target
  run(ctx: BenchContext): Promise<Row[]>
}
