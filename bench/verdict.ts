// PASS/FAIL of a measured row against its scenario's target.
import type { LoadSummary } from './load.ts'
import { pairedRatio } from './measure.ts'
import type { LimitRow, MinRatio, ServerFigures, Target } from './scenario.ts'

export interface Verdict {
  ratio: number
  pass: boolean
  /** Measured for reference: the table shows the ratio without PASS or FAIL. */
  reference?: boolean
  /** The least ratio the row needed and where it comes from, in words ("44.1% (90% of …)"). */
  required?: string
  /** Why it failed; empty when it passed. */
  reasons: string[]
}

/** What the same case of a target's reference scenario reached in this run; null when not measured. */
export type ReferenceRatio = number | null

function failures(run: LoadSummary): number {
  return run.errors + run.non2xx + run.timeouts
}

const percent = (ratio: number) => `${(ratio * 100).toFixed(1)}%`

/** The least ratio a row must reach, or why none can be stated. */
function leastRatio(
  minRatio: MinRatio,
  reference: ReferenceRatio,
): { value: number; words: string } | string {
  if (typeof minRatio === 'number') return { value: minRatio, words: `${minRatio * 100}%` }
  if (reference === null) return `no "${minRatio.ofScenario}" row of this case in this run to judge against`
  const value = minRatio.share * reference
  return {
    value,
    words: `${percent(value)} (${minRatio.share * 100}% of the reference's ${percent(reference)})`,
  }
}

export function judge(
  target: Target,
  baseline: ServerFigures,
  subject: ServerFigures,
  reference: ReferenceRatio = null,
): Verdict {
  const ratio = pairedRatio(baseline, subject)
  const reasons: string[] = []
  const least = leastRatio(target.minRatio, reference)
  if (typeof least === 'string') reasons.push(least)
  else if (ratio < least.value) reasons.push(`ratio ${percent(ratio)} < ${least.words}`)
  if (subject.closed.p99Ms >= target.maxP99Ms) {
    reasons.push(`p99 ${subject.closed.p99Ms} ms >= ${target.maxP99Ms} ms`)
  }
  // A fast wrong answer (401, 429, 500) is no result at all.
  const failed = failures(subject.closed) + failures(subject.fixedRate)
  if (failed > 0) reasons.push(`${failed} failed requests`)
  return {
    ratio,
    pass: reasons.length === 0,
    reasons,
    ...(typeof least !== 'string' && { required: least.words }),
  }
}

export type LimitVerdict = Omit<Verdict, 'ratio'>

/** A limit row passes when its judged figure is under the limit and every request got its answer. */
export function judgeLimit(row: LimitRow): LimitVerdict {
  const { judged, figures } = row
  const reasons: string[] = []
  if (judged.value >= judged.max) {
    const over = judged.value - judged.max
    reasons.push(
      `${judged.label} ${judged.value.toFixed(1)} ${judged.unit} >= ${judged.max.toFixed(1)} ${judged.unit} (+${over.toFixed(1)})`,
    )
  }
  if (figures.ok < figures.sent)
    reasons.push(`${figures.sent - figures.ok} of ${figures.sent} requests failed`)
  return { pass: reasons.length === 0, reasons }
}
