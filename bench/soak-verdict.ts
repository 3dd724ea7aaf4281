// The soak's reading of its memory samples: the run minus a warm-up is cut into
// thirds, and RSS has levelled off when the last third grew much less than the first. A steady
// leak grows each third alike; a heap or allocator filling up to its working size grows early.
import type { LimitRow } from './scenario.ts'

export interface MemorySample {
  atSeconds: number
  rssMB: number
  /** RSS of the server's child processes (the warm PDF readers). */
  readersMB: number
  /** V8 heap in use at that instant, garbage not yet collected included. */
  heapUsedMB: number
  /** Requests sent so far. */
  requests: number
  /** Server CPU (user + system) so far, in microseconds: per interval, the cost of a request. */
  cpuMicros: number
}

/** The first tenth of the run: the server going from idle to loaded (JIT, pools, heap sizing). */
const WARM_UP_SHARE = 0.1
/** Below this, growth is within what RSS moves between two samples of a steady server. */
const NOISE_MB = 4

export interface SoakVerdict {
  warmUpSeconds: number
  /** RSS growth of each third after the warm-up, in MB; and the heap's, sampled alike. */
  rssThirds: [number, number, number]
  heapThirds: [number, number, number]
  judged: LimitRow['judged']
}

/** `samples` taken at 0 and after each of `intervals` equal intervals. */
export function judgeSoak(samples: MemorySample[], intervals: number): SoakVerdict {
  const warm = Math.round(intervals * WARM_UP_SHARE)
  const third = Math.floor((intervals - warm) / 3)
  const at = (k: number) => samples[Math.min(samples.length - 1, warm + k * third)]!
  const thirds = (read: (s: MemorySample) => number): [number, number, number] => [
    read(at(1)) - read(at(0)),
    read(at(2)) - read(at(1)),
    read(at(3)) - read(at(2)),
  ]
  const rssThirds = thirds((s) => s.rssMB)
  const max = Math.max(rssThirds[0] / 2, NOISE_MB)
  return {
    warmUpSeconds: samples[warm]!.atSeconds,
    rssThirds,
    heapThirds: thirds((s) => s.heapUsedMB),
    judged: {
      label: 'last third',
      value: rssThirds[2],
      max,
      unit: 'MB',
      derivation: `½ of the first third's ${signed(rssThirds[0])}, at least ${NOISE_MB}`,
    },
  }
}

const signed = (mb: number) => `${mb >= 0 ? '+' : ''}${mb.toFixed(1)} MB`
const series = (samples: MemorySample[], read: (s: MemorySample) => number) =>
  samples.map((s) => read(s).toFixed(0)).join(' ')

function perInterval(samples: MemorySample[]): string[] {
  return samples.slice(1).map((s, i) => {
    const before = samples[i]!
    return ((s.cpuMicros - before.cpuMicros) / Math.max(1, s.requests - before.requests)).toFixed(0)
  })
}

/** The sampled series and the verdict in words, printed under the table. */
export function soakNotes(samples: MemorySample[], verdict: SoakVerdict): string[] {
  const every = (samples[1]?.atSeconds ?? 0).toFixed(0)
  const levelled = verdict.judged.value < verdict.judged.max
  return [
    `RSS MB every ${every} s: ${series(samples, (s) => s.rssMB)}`,
    `V8 heap used MB (no forced GC): ${series(samples, (s) => s.heapUsedMB)}`,
    `PDF readers' RSS MB: ${series(samples, (s) => s.readersMB)}`,
    `requests sent by then: ${series(samples, (s) => s.requests)}`,
    // Throughput on a shared machine says little; CPU per request says whether requests got dearer.
    `server CPU µs per request, per interval: ${perInterval(samples).join(' ')}`,
    `verdict: RSS ${levelled ? 'levelled off' : 'still growing'}; after the ${verdict.warmUpSeconds.toFixed(0)} s warm-up its thirds grew ${verdict.rssThirds.map(signed).join(', ')} (heap used ${verdict.heapThirds.map(signed).join(', ')})`,
  ]
}
