// paraph_jobs and paraph_jobs_oldest_age_seconds: read from the jobs table when Prometheus scrapes,
// with one grouped query shared by both gauges. The values are database-wide: every process
// reports the same ones (dashboards take max() over the processes).
import type { FastifyBaseLogger } from 'fastify'
import { Gauge, type Registry } from 'prom-client'
import type { Clock } from '../lib/clock.ts'

export interface JobCount {
  kind: string
  state: string
  count: number
  /** ISO 8601 creation time of the oldest job of this kind in this state. */
  oldestCreatedAt: string
}

export interface JobGaugeOptions {
  registry: Registry
  /** The grouped query (jobs/job-store.ts countJobsByKindAndState). */
  read: () => Promise<JobCount[]>
  clock: Clock
  logger: FastifyBaseLogger
  /** The states every seen kind is reported in, 0 when it has none (a series never vanishes). */
  states: readonly string[]
  /** A scrape waits at most this long for the query, then reports the last values read. */
  timeoutMs?: number
}

interface Snapshot {
  counts: Map<string, number>
  ages: Map<string, number>
}

const key = (kind: string, state: string) => `${kind}\u0000${state}`

export function registerJobGauges(options: JobGaugeOptions): void {
  const { registry, read, clock, logger, states, timeoutMs = 2000 } = options
  const kinds = new Set<string>()
  let last: Snapshot = { counts: new Map(), ages: new Map() }
  let inFlight: Promise<Snapshot> | null = null
  let warned = false

  const query = async (): Promise<Snapshot> => {
    const rows = await read()
    const now = clock.epochMs()
    const snapshot: Snapshot = { counts: new Map(), ages: new Map() }
    for (const row of rows) {
      kinds.add(row.kind)
      snapshot.counts.set(key(row.kind, row.state), row.count)
      const age = (now - Date.parse(row.oldestCreatedAt)) / 1000
      snapshot.ages.set(key(row.kind, row.state), Math.max(0, age))
    }
    return snapshot
  }

  /** One query at a time, however many gauges or scrapes ask; bounded by timeoutMs. */
  const snapshot = (): Promise<Snapshot> => {
    inFlight ??= query()
      .then((fresh) => {
        last = fresh
        warned = false
        return fresh
      })
      .finally(() => {
        inFlight = null
      })
    let timer: NodeJS.Timeout | undefined
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`jobs query took over ${timeoutMs} ms`)), timeoutMs)
    })
    return Promise.race([inFlight, deadline])
      .catch((error: unknown) => {
        if (!warned) logger.warn({ err: error }, 'metrics: jobs not counted; the last values are reported')
        warned = true
        return last
      })
      .finally(() => clearTimeout(timer))
  }

  const fill = (gauge: Gauge<'kind' | 'state'>, values: Map<string, number>) => {
    gauge.reset()
    for (const kind of kinds)
      for (const state of states) gauge.set({ kind, state }, values.get(key(kind, state)) ?? 0)
  }

  new Gauge({
    name: 'paraph_jobs',
    help: 'Jobs in the jobs table by kind and state (pending, running, dead); database-wide, the same on every process',
    labelNames: ['kind', 'state'] as const,
    registers: [registry],
    async collect() {
      fill(this, (await snapshot()).counts)
    },
  })
  new Gauge({
    name: 'paraph_jobs_oldest_age_seconds',
    help: 'Age since creation of the oldest job by kind and state (0 when none); database-wide, the same on every process',
    labelNames: ['kind', 'state'] as const,
    registers: [registry],
    async collect() {
      fill(this, (await snapshot()).ages)
    },
  })
}
