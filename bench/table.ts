// The printed table: one block per scenario, a baseline line and a subject line per case; the
// blocks of limit scenarios (one line per case, no baseline server) come from limit-table.ts.

import { render } from './columns.ts'
import { formatLimitBlock, LIMIT_LEGEND, type LimitResult } from './limit-table.ts'
import type { LoadSummary } from './load.ts'
import type { MinRatio, PairScenario, Row, ServerFigures } from './scenario.ts'
import type { Verdict } from './verdict.ts'

export type JudgedRow = Row & { verdict?: Verdict }
export interface PairResult {
  scenario: PairScenario
  rows: JudgedRow[]
  /** Set when the scenario itself threw. */
  error?: string
}
export type ScenarioResult = PairResult | LimitResult

const isLimit = (result: ScenarioResult): result is LimitResult => result.scenario.kind === 'limit'

const HEADER = [
  'case',
  'server',
  'rps',
  'p50',
  'p99',
  'max',
  'fixed rate asked/got',
  'p99 there',
  'err/non2xx/t-o',
  'RSS',
  'cpu/req',
  'cpu/req fixed',
  'ratio',
  'result',
]
const RIGHT_ALIGNED = new Set([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])

const int = (n: number) => Math.round(n).toLocaleString('en-US')
const errors = (run: LoadSummary) => `${run.errors}/${run.non2xx}/${run.timeouts}`
// autocannon's histogram has 1 ms resolution: 0 means under a millisecond.
const ms = (n: number) => (n === 0 ? '<1 ms' : `${n} ms`)

function serverCells(figures: ServerFigures): string[] {
  const { closed, fixedRate } = figures
  const rss = figures.rssKiB === null ? 'n/a' : `${(figures.rssKiB / 1024).toFixed(0)} MB`
  return [
    figures.label,
    int(closed.rps),
    ms(closed.p50Ms),
    ms(closed.p99Ms),
    ms(closed.maxMs),
    `${int(fixedRate.overallRate ?? 0)} / ${int(fixedRate.rps)}`,
    ms(fixedRate.p99Ms),
    `${errors(closed)} + ${errors(fixedRate)}`,
    rss,
    `${Math.round(figures.cpuMicrosPerRequest)} µs`,
    `${Math.round(figures.fixedRateCpuMicrosPerRequest)} µs`,
  ]
}

function rowLines(row: JudgedRow): string[][] {
  if ('skipped' in row) return [[row.case, `skipped: ${row.skipped}`]]
  const verdict = row.verdict
  const result = !verdict
    ? ''
    : verdict.reference
      ? 'reference'
      : verdict.pass
        ? `PASS${verdict.required ? ` (>= ${verdict.required})` : ''}`
        : `FAIL (${verdict.reasons.join('; ')})`
  // Cost ratio at equal load: bare CPU per request over Paraph's, both at the same fixed rate.
  const cpuRatio =
    row.baseline.fixedRateCpuMicrosPerRequest / Math.max(1, row.subject.fixedRateCpuMicrosPerRequest)
  const ratio = verdict ? `${(verdict.ratio * 100).toFixed(1)}% (cpu ${(cpuRatio * 100).toFixed(0)}%)` : ''
  return [
    [row.case, ...serverCells(row.baseline), '', ''],
    ['', ...serverCells(row.subject), ratio, result],
  ]
}

function leastRatioWords(minRatio: MinRatio): string {
  return typeof minRatio === 'number'
    ? `${minRatio * 100}% of bare rps`
    : `${minRatio.share * 100}% of the ratio of "${minRatio.ofScenario}" (same case, this run)`
}

/** The target line, or for a reference scenario the rows judged against it. */
function targetLine(scenario: PairScenario, all: ScenarioResult[]): string {
  if (!scenario.reference) {
    return `target: ratio >= ${leastRatioWords(scenario.target.minRatio)}, p99 < ${scenario.target.maxP99Ms} ms`
  }
  const judgedHere = all.flatMap(({ scenario: other }) =>
    other.kind !== 'limit' &&
    other.target &&
    typeof other.target.minRatio !== 'number' &&
    other.target.minRatio.ofScenario === scenario.name
      ? [`"${other.name}" passes at >= ${other.target.minRatio.share * 100}% of this ratio`]
      : [],
  )
  return `(reference, not judged${judgedHere.length ? `: ${judgedHere.join('; ')}` : ''})`
}

function formatPairBlock({ scenario, rows, error }: PairResult, all: ScenarioResult[]): string {
  const title = `${scenario.name}: ${scenario.description}\n  ${targetLine(scenario, all)}`
  const rounds = rows.flatMap((row) =>
    'subject' in row
      ? [
          [
            '',
            `${row.case} rounds rps: bare ${row.baseline.roundsRps.join(' ')} / ${row.subject.label} ${row.subject.roundsRps.join(' ')}`,
          ],
        ]
      : [],
  )
  const lines = [HEADER, ...rows.flatMap(rowLines), ...rounds, ...(error ? [['', `error: ${error}`]] : [])]
  return `${title}\n${render(lines, RIGHT_ALIGNED)}`
}

export function formatTable(results: ScenarioResult[]): string {
  const blocks = results.map((result) =>
    isLimit(result) ? formatLimitBlock(result) : formatPairBlock(result, results),
  )
  const pairLegend = [
    'rps, p50: median of the closed-loop rounds, which alternate baseline and Paraph; p99, max: worst round.',
    'ratio: median of the per-round Paraph/baseline rps ratios (cancels the machine drifting between rounds), judged;',
    '(cpu N%): bare CPU per request / Paraph CPU per request at the same fixed rate, shown for reference.',
    'Fixed rate: autocannon overallRate at a share of the bare rps, same rate for both',
    'servers; "got" below "asked" means the server could not keep up. err/non2xx/t-o: closed loop + fixed rate.',
    'RSS: VmRSS of the server process after its runs. cpu/req: server CPU (user+sys) per request in the rounds;',
    "at the bare route's rates the load generator on the other core is often the bottleneck, so cpu/req shows",
    'what each server itself costs; "cpu/req fixed" is the same at the fixed rate, where both see the same load.',
  ]
  const legend = [
    ...(results.some((r) => !isLimit(r)) ? pairLegend : []),
    ...(results.some(isLimit) ? LIMIT_LEGEND : []),
  ]
  return `${blocks.join('\n\n')}\n\n${legend.join('\n')}`
}
