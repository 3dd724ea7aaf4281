// One case of the volume scenario: the same request against two `paraph serve`
// processes, one on a small database and one on the loaded one, in alternating blocks of requests
// sent one at a time (S L, L S, …: a machine speeding up or slowing down favours neither). Each
// block's server CPU is read from /proc around it (nanoseconds, schedstat), so the figure is the
// server's own cost per request — what the soak saw grow — and the round trip is timed in this
// process beside it.
import { preciseCpuMicros } from './processes.ts'
import type { RunningServer } from './servers.ts'
import { percentile } from './stats.ts'

/** Sends request number `i` to a server; resolves once the answer is read and checked. */
export type Send = (server: RunningServer, i: number) => Promise<void>

export interface SideFigures {
  ms: number[]
  cpuMicrosPerRequest: number
  /** Server CPU per request of each measured block, in µs: tells a steady cost from a spike. */
  blockCpuMicros: number[]
}

export interface CaseFigures {
  small: SideFigures
  loaded: SideFigures
}

export interface Pacing {
  /** Blocks per server; one warm-up block each is run first and dropped. */
  blocks: number
  perBlock: number
}

async function block(server: RunningServer, send: Send, from: number, count: number) {
  const ms: number[] = []
  const cpuBefore = preciseCpuMicros(server.process) ?? 0
  for (let i = from; i < from + count; i++) {
    const started = performance.now()
    await send(server, i)
    ms.push(performance.now() - started)
  }
  return { ms, cpu: (preciseCpuMicros(server.process) ?? 0) - cpuBefore }
}

export async function measureCase(
  servers: { small: RunningServer; loaded: RunningServer },
  send: Send,
  { blocks, perBlock }: Pacing,
): Promise<CaseFigures> {
  const side = () => ({ ms: [] as number[], cpu: 0, blocks: [] as number[] })
  const sides = { small: side(), loaded: side() }
  for (let b = 0; b <= blocks; b++) {
    const order = b % 2 === 0 ? (['small', 'loaded'] as const) : (['loaded', 'small'] as const)
    for (const which of order) {
      const result = await block(servers[which], send, b * perBlock, perBlock)
      if (b === 0) continue
      sides[which].ms.push(...result.ms)
      sides[which].cpu += result.cpu
      sides[which].blocks.push(result.cpu / perBlock)
    }
  }
  const figures = (which: 'small' | 'loaded'): SideFigures => ({
    ms: sides[which].ms,
    cpuMicrosPerRequest: sides[which].cpu / Math.max(1, sides[which].ms.length),
    blockCpuMicros: sides[which].blocks,
  })
  return { small: figures('small'), loaded: figures('loaded') }
}

/**
 * Loaded over small: CPU per request (the median block's: a block's GC pause or timer spike, which
 * lands on either side at random, moves a total by 10–20 % on a 1 ms request; a cost that grows
 * with the data is in every block), the same from the totals, and p50 of the round trip.
 */
export function costRatios(figures: CaseFigures): { cpu: number; cpuTotals: number; p50: number } {
  const median = (side: SideFigures) => Math.max(1, percentile(side.blockCpuMicros, 50))
  return {
    cpu: median(figures.loaded) / median(figures.small),
    cpuTotals: figures.loaded.cpuMicrosPerRequest / Math.max(1, figures.small.cpuMicrosPerRequest),
    p50: percentile(figures.loaded.ms, 50) / Math.max(0.001, percentile(figures.small.ms, 50)),
  }
}
