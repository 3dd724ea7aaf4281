// autocannon runs, reduced to the figures the table shows. The load generator runs in this process,
// the servers in their own (run.ts), so the two share 2 cores but not an event loop.
import autocannon from 'autocannon'

export interface LoadTarget {
  url: string
  headers: Record<string, string>
}

export interface LoadSummary {
  /** Mean of the per-second request counts. */
  rps: number
  /** autocannon records latency in whole milliseconds. */
  p50Ms: number
  p99Ms: number
  maxMs: number
  total: number
  errors: number
  non2xx: number
  timeouts: number
  /** Requested overall rate, or null for a closed-loop run. */
  overallRate: number | null
}

interface RunOptions {
  seconds: number
  connections: number
  overallRate?: number
}

export async function runLoad(target: LoadTarget, options: RunOptions): Promise<LoadSummary> {
  const result = await autocannon({
    url: target.url,
    headers: target.headers,
    duration: options.seconds,
    connections: options.connections,
    pipelining: 1,
    timeout: 10,
    ...(options.overallRate ? { overallRate: options.overallRate } : {}),
  })
  return {
    rps: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    total: result.requests.total,
    errors: result.errors,
    non2xx: result.non2xx,
    timeouts: result.timeouts,
    overallRate: options.overallRate ?? null,
  }
}
