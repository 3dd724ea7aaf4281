// One server's figures for a row: a discarded warm-up (JIT, connection pools, SQLite page cache),
// a closed-loop run, then a fixed-arrival-rate run, then its RSS.
import { type LoadTarget, runLoad } from './load.ts'
import { rssKiB } from './processes.ts'
import type { BenchContext, ServerFigures } from './scenario.ts'
import type { RunningServer } from './servers.ts'

function loadTarget(server: RunningServer, path: string): LoadTarget {
  return {
    url: `${server.process.baseUrl}${path}`,
    headers: server.bearer ? { authorization: server.bearer } : {},
  }
}

/** One request before measuring: a server answering 401 or 500 would bench its error path. */
export async function preflight(server: RunningServer, path: string): Promise<Record<string, unknown>> {
  const target = loadTarget(server, path)
  const response = await fetch(target.url, { headers: target.headers })
  const text = await response.text()
  if (response.status !== 200) {
    throw new Error(`${server.process.name} GET ${path} answered ${response.status}: ${text.slice(0, 200)}`)
  }
  return JSON.parse(text) as Record<string, unknown>
}

/**
 * `rateFor` picks the fixed arrival rate from this server's closed-loop result (the baseline's) or
 * returns the rate already used for the baseline, so both servers get the same arrival rate.
 */
export async function measureServer(
  ctx: BenchContext,
  server: RunningServer,
  path: string,
  label: string,
  rateFor: (closedRps: number) => number,
): Promise<ServerFigures> {
  const target = loadTarget(server, path)
  const { connections } = ctx
  await runLoad(target, { seconds: ctx.warmUpSeconds, connections })
  const closed = await runLoad(target, { seconds: ctx.measureSeconds, connections })
  // Closed loop sends the next request only after an answer, so a stall delays the requests that
  // would have seen it and p99 looks better than it is (coordinated omission, security-notes).
  // Caveat of autocannon 8's overallRate: each connection spends a per-second budget back to back
  // and then idles, so a server slower than the rate is simply sent less (the table shows the rate
  // reached), and its latency correction assumes 1 ms between requests, which overstates the tail.
  const overallRate = Math.max(connections, Math.round(rateFor(closed.rps)))
  const fixedRate = await runLoad(target, { seconds: ctx.measureSeconds, connections, overallRate })
  return { label, closed, fixedRate, rssKiB: rssKiB(server.process) }
}
