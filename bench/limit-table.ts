// The block of a limit scenario: one line per case, Paraph alone, its judged figure beside the
// reference measured in the same run and the limit derived from it.
import { render } from './columns.ts'
import type { LimitFigures, LimitRow, LimitScenario, SkippedRow } from './scenario.ts'
import type { LimitVerdict } from './verdict.ts'

export type JudgedLimitRow = (LimitRow & { verdict?: LimitVerdict }) | SkippedRow
export interface LimitResult {
  scenario: LimitScenario
  rows: JudgedLimitRow[]
  /** Set when the scenario itself threw. */
  error?: string
}

const HEADER = [
  'case',
  'ok/sent',
  'rps',
  'latency at',
  'p50',
  'p99',
  'max',
  'cpu/req (+children)',
  'reference',
  'judged',
  'target',
  'result',
]
const RIGHT_ALIGNED = new Set([1, 2, 3, 4, 5, 6, 7])

const ms = (n: number | null) => (n === null ? 'n/a' : `${n.toFixed(1)} ms`)

function cpu(figures: LimitFigures): string {
  const { cpuMicrosPerRequest: own, childCpuMicrosPerRequest: children } = figures
  if (own === null) return 'n/a'
  const ownMs = `${(own / 1000).toFixed(1)} ms`
  return children === null ? ownMs : `${ownMs} (+${(children / 1000).toFixed(1)})`
}

function rowLine(row: JudgedLimitRow): string[] {
  if ('skipped' in row) return [row.case, `skipped: ${row.skipped}`]
  const { figures, judged, verdict } = row
  const value = (n: number) => `${n.toFixed(1)} ${judged.unit}`
  const result = verdict ? (verdict.pass ? 'PASS' : `FAIL (${verdict.reasons.join('; ')})`) : ''
  return [
    row.case,
    `${figures.ok}/${figures.sent}`,
    figures.rps === null ? 'n/a' : figures.rps.toFixed(1),
    figures.latencyLoad,
    ms(figures.p50Ms),
    ms(figures.p99Ms),
    ms(figures.maxMs),
    cpu(figures),
    row.reference,
    `${judged.label} ${value(judged.value)}`,
    `< ${value(judged.max)}${judged.derivation ? ` (${judged.derivation})` : ''}`,
    result,
  ]
}

export function formatLimitBlock({ scenario, rows, error }: LimitResult): string {
  const title = `${scenario.name}: ${scenario.description}\n  target: ${scenario.goal}`
  // One line per note: the soak's notes are series of twenty figures each.
  const notes = rows.flatMap((row) =>
    'notes' in row ? row.notes.map((note) => ['', `${row.case}: ${note}`]) : [],
  )
  const lines = [HEADER, ...rows.map(rowLine), ...notes, ...(error ? [['', `error: ${error}`]] : [])]
  return `${title}\n${render(lines, RIGHT_ALIGNED)}`
}

export const LIMIT_LEGEND = [
  'Limit rows (Paraph alone, held against a fixed or derived limit): ok/sent counts the answers with the',
  'expected status over all runs of the case; rps: closed-loop throughput; p50, p99, max: taken under the',
  'load in "latency at" (an open-loop rate, or a burst), timed in the bench process with sub-ms resolution.',
  'cpu/req (+children): server CPU per request, and that of its child processes (the PDF inspectors).',
  'reference: measured in the same run, in the bench process; a derived target is computed from it.',
]
