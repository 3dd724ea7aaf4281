// One server's figures for a row: a discarded warm-up (JIT, connection pools, SQLite page cache),
// a closed-loop run, then a fixed-arrival-rate run, then its RSS.
import { type LoadSummary, type LoadTarget, runLoad } from './load.ts'
import { cpuMicros, rssKiB } from './processes.ts'
import type { BenchContext, ServerFigures } from './scenario.ts'
import type { RunningServer } from './servers.ts'
import { median } from './stats.ts'

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

/** Several closed-loop rounds as one summary: median rps and p50, worst p99 and max, summed counts. */
function combine(rounds: LoadSummary[]): LoadSummary {
  return {
    rps: Math.round(median(rounds.map((r) => r.rps))),
    p50Ms: median(rounds.map((r) => r.p50Ms)),
    p99Ms: Math.max(...rounds.map((r) => r.p99Ms)),
    maxMs: Math.max(...rounds.map((r) => r.maxMs)),
    total: rounds.reduce((sum, r) => sum + r.total, 0),
    errors: rounds.reduce((sum, r) => sum + r.errors, 0),
    non2xx: rounds.reduce((sum, r) => sum + r.non2xx, 0),
    timeouts: rounds.reduce((sum, r) => sum + r.timeouts, 0),
    overallRate: null,
  }
}

/**
 * Baseline and subject measured in paired closed-loop rounds (B S, S B, B S …), one at a time so
 * they never compete for the 2 cores. This machine's speed drifts by ±30% within seconds; comparing
 * each subject round with the baseline round beside it cancels most of that drift, alternating
 * which goes first cancels what is left of a steady one, and the verdict takes the median of those
 * per-round ratios.
 */
export async function measurePair(
  ctx: BenchContext,
  servers: { baseline: RunningServer; subject: RunningServer },
  paths: { baseline: string; subject: string },
  labels: { baseline: string; subject: string },
): Promise<{ baseline: ServerFigures; subject: ServerFigures }> {
  const { connections } = ctx
  const targets = {
    baseline: loadTarget(servers.baseline, paths.baseline),
    subject: loadTarget(servers.subject, paths.subject),
  }
  await runLoad(targets.baseline, { seconds: ctx.warmUpSeconds, connections })
  await runLoad(targets.subject, { seconds: ctx.warmUpSeconds, connections })
  const rounds = { baseline: [] as LoadSummary[], subject: [] as LoadSummary[] }
  const seconds = Math.max(2, Math.round(ctx.measureSeconds / ctx.rounds))
  const cpu = { baseline: 0, subject: 0 }
  const measureRound = async (which: 'baseline' | 'subject') => {
    const before = cpuMicros(servers[which].process) ?? 0
    const result = await runLoad(targets[which], { seconds, connections })
    cpu[which] += (cpuMicros(servers[which].process) ?? 0) - before
    rounds[which].push(result)
  }
  for (let i = 0; i < ctx.rounds; i++) {
    // B S, then S B: a machine speeding up or slowing down within a pair favours neither server.
    const order = i % 2 === 0 ? (['baseline', 'subject'] as const) : (['subject', 'baseline'] as const)
    for (const which of order) await measureRound(which)
  }
  // Closed loop sends the next request only after an answer, so a stall delays the requests that
  // would have seen it and p99 looks better than it is (coordinated omission:
  // docs/benchmarks.md#how-the-rows-are-measured). Caveat of autocannon 8's overallRate: each
  // connection spends a per-second budget back to back and then idles, so a server slower than the
  // rate is simply sent less (the table shows the rate reached), and its latency correction assumes
  // 1 ms between requests, which overstates the tail.
  const closedBaseline = combine(rounds.baseline)
  const overallRate = Math.max(connections, Math.round(closedBaseline.rps * ctx.fixedRateShare))
  const fixedCpu = { baseline: 0, subject: 0 }
  const fixedRound = async (which: 'baseline' | 'subject') => {
    const before = cpuMicros(servers[which].process) ?? 0
    const result = await runLoad(targets[which], { seconds: ctx.measureSeconds, connections, overallRate })
    fixedCpu[which] = ((cpuMicros(servers[which].process) ?? 0) - before) / Math.max(1, result.total)
    return result
  }
  const fixed = { baseline: await fixedRound('baseline'), subject: await fixedRound('subject') }
  const figures = (which: 'baseline' | 'subject'): ServerFigures => ({
    label: labels[which],
    closed: which === 'baseline' ? closedBaseline : combine(rounds.subject),
    roundsRps: rounds[which].map((r) => r.rps),
    cpuMicrosPerRequest:
      cpu[which] /
      Math.max(
        1,
        rounds[which].reduce((sum, r) => sum + r.total, 0),
      ),
    fixedRate: fixed[which],
    fixedRateCpuMicrosPerRequest: fixedCpu[which],
    rssKiB: rssKiB(servers[which].process),
  })
  return { baseline: figures('baseline'), subject: figures('subject') }
}

/** Median of the subject/baseline rps ratios of paired rounds. */
export function pairedRatio(baseline: ServerFigures, subject: ServerFigures): number {
  const ratios = subject.roundsRps.map((rps, i) => rps / Math.max(1, baseline.roundsRps[i] ?? 0))
  return ratios.length ? median(ratios) : 0
}
