// PASS/FAIL of a measured row against its scenario's target.
import type { LoadSummary } from './load.ts'
import { pairedRatio } from './measure.ts'
import type { LimitRow, ServerFigures, Target } from './scenario.ts'

export interface Verdict {
  ratio: number
  pass: boolean
  /** Measured for reference: the table shows the ratio without PASS or FAIL. */
  reference?: boolean
  /** Why it failed; empty when it passed. */
  reasons: string[]
}

function failures(run: LoadSummary): number {
  return run.errors + run.non2xx + run.timeouts
}

export function judge(target: Target, baseline: ServerFigures, subject: ServerFigures): Verdict {
  const ratio = pairedRatio(baseline, subject)
  const reasons: string[] = []
  if (ratio < target.minRatio) {
    reasons.push(`ratio ${(ratio * 100).toFixed(1)}% < ${target.minRatio * 100}%`)
  }
  if (subject.closed.p99Ms >= target.maxP99Ms) {
    reasons.push(`p99 ${subject.closed.p99Ms} ms >= ${target.maxP99Ms} ms`)
  }
  // A fast wrong answer (401, 429, 500) is no result at all.
  const failed = failures(subject.closed) + failures(subject.fixedRate)
  if (failed > 0) reasons.push(`${failed} failed requests`)
  return { ratio, pass: reasons.length === 0, reasons }
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
