// `npm run bench`: runs every scenario in the list below, prints one table, writes .bench/results.json.
// `npm run bench -- WORD…` runs only the scenarios whose name contains a WORD.
// Servers run in child processes; this process generates load (and serves the PDFs Paraph fetches
// by URL, and times pdf-lib for reference). Exit code 0 even when a target is missed (a benchmark,
// not a test); 1 only when a scenario could not run.
import { mkdir, writeFile } from 'node:fs/promises'
import { availableParallelism, loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { pairedRatio } from './measure.ts'
import type {
  BenchContext,
  LimitRow,
  LimitScenario,
  PairScenario,
  Row,
  Scenario,
  SkippedRow,
  Target,
} from './scenario.ts'
import { bulkSendScenario } from './scenarios/bulk-send.ts'
import { consoleScenario } from './scenarios/console.ts'
import { createSubmissionScenario } from './scenarios/create-submission.ts'
import { finalizationScenario } from './scenarios/finalization.ts'
import { finalizeMemoryScenario } from './scenarios/finalize-memory.ts'
import { fromDocxScenario } from './scenarios/from-docx.ts'
import { fromHtmlScenario } from './scenarios/from-html.ts'
import { getSubmissionScenario } from './scenarios/get-submission.ts'
import { getSubmissionFloorScenario } from './scenarios/get-submission-floor.ts'
import { healthScenario } from './scenarios/health.ts'
import { mailScenario } from './scenarios/mail.ts'
import { metricsScenario } from './scenarios/metrics.ts'
import { purgeScenario } from './scenarios/purge.ts'
import { remindersScenario } from './scenarios/reminders.ts'
import { requestLogsScenario } from './scenarios/request-logs.ts'
import { signGroupScenario, signScenario } from './scenarios/sign.ts'
import { signingPageScenario } from './scenarios/signing-page.ts'
import { soakScenario } from './scenarios/soak.ts'
import { urlMemoryScenario } from './scenarios/url-memory.ts'
import { usageScenario } from './scenarios/usage.ts'
import { verifyScenario } from './scenarios/verify.ts'
import { volumeScenario } from './scenarios/volume.ts'
import { webhooksScenario } from './scenarios/webhooks.ts'
import { webhooksDeadEndpointScenario } from './scenarios/webhooks-dead-endpoint.ts'
import { stopAllServers } from './servers.ts'
import { formatTable, type JudgedRow, type ScenarioResult } from './table.ts'
import { judge, judgeLimit, type ReferenceRatio } from './verdict.ts'

/** Every scenario, in the order its rows are printed. Each issue appends its own. */
const SCENARIOS: Scenario[] = [
  healthScenario,
  getSubmissionScenario,
  getSubmissionFloorScenario,
  createSubmissionScenario,
  urlMemoryScenario,
  soakScenario,
  signScenario,
  signGroupScenario,
  finalizationScenario,
  finalizeMemoryScenario,
  signingPageScenario,
  consoleScenario,
  mailScenario,
  webhooksScenario,
  webhooksDeadEndpointScenario,
  fromHtmlScenario,
  fromDocxScenario,
  usageScenario,
  requestLogsScenario,
  metricsScenario,
  volumeScenario,
  remindersScenario,
  bulkSendScenario,
  verifyScenario,
  purgeScenario,
]

/** `npm run bench -- from_pdf RSS`: only the scenarios whose name contains one of the words. */
function selected(words: string[]): Scenario[] {
  if (words.length === 0) return SCENARIOS
  return SCENARIOS.filter((s) => words.some((w) => s.name.toLowerCase().includes(w.toLowerCase())))
}

/** PARAPH_SOAK_SECONDS shortens (or lengthens) the soak for a quick check; 5 minutes by default. */
function soakSeconds(): number {
  const text = process.env.PARAPH_SOAK_SECONDS
  if (text === undefined) return 300
  const seconds = Number(text)
  if (!Number.isInteger(seconds) || seconds < 20) {
    throw new Error(`PARAPH_SOAK_SECONDS: a whole number of seconds, at least 20 (got "${text}")`)
  }
  return seconds
}

/** PARAPH_VOLUME_SUBMISSIONS: a smaller volume for a quick check; 1 000 000 by default. */
function volumeSubmissions(): number {
  const text = process.env.PARAPH_VOLUME_SUBMISSIONS
  if (text === undefined) return 1_000_000
  const submissions = Number(text)
  if (!Number.isInteger(submissions) || submissions < 10_000) {
    throw new Error(`PARAPH_VOLUME_SUBMISSIONS: a whole number, at least 10000 (got "${text}")`)
  }
  return submissions
}

const ctx: BenchContext = {
  postgresUrl: 'postgres://postgres@127.0.0.1:5432/test',
  warmUpSeconds: 5,
  measureSeconds: 24,
  rounds: 12,
  connections: 10,
  fixedRateShare: 0.5,
  soakSeconds: soakSeconds(),
  volumeSubmissions: volumeSubmissions(),
}

const RESULTS_DIR = fileURLToPath(new URL('../.bench/', import.meta.url))

/** A scenario's rows as measured, before any verdict. */
type Measured = { error?: string } & (
  | { kind: 'pair'; scenario: PairScenario; rows: Row[] }
  | { kind: 'limit'; scenario: LimitScenario; rows: Array<LimitRow | SkippedRow> }
)

async function measure(scenario: Scenario): Promise<Measured> {
  console.error(`bench: ${scenario.name} …`)
  try {
    return scenario.kind === 'limit'
      ? { kind: 'limit', scenario, rows: await scenario.run(ctx) }
      : { kind: 'pair', scenario, rows: await scenario.run(ctx) }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return scenario.kind === 'limit'
      ? { kind: 'limit', scenario, rows: [], error: message }
      : { kind: 'pair', scenario, rows: [], error: message }
  }
}

/**
 * The ratio that the same case of the scenario a target refers to reached in this run (measured
 * before or after the judged row: verdicts are given once every scenario has run).
 */
function referenceRatio(target: Target, caseName: string, all: Measured[]): ReferenceRatio {
  if (typeof target.minRatio === 'number') return null
  const { ofScenario } = target.minRatio
  const row = all.find((m) => m.scenario.name === ofScenario)?.rows.find((r) => r.case === caseName)
  return row && 'subject' in row && 'baseline' in row ? pairedRatio(row.baseline, row.subject) : null
}

function judged(measured: Measured, all: Measured[]): ScenarioResult {
  const { error } = measured
  if (measured.kind === 'limit') {
    const rows = measured.rows.map((row) => ('skipped' in row ? row : { ...row, verdict: judgeLimit(row) }))
    return { scenario: measured.scenario, rows, error }
  }
  const { scenario } = measured
  const rows: JudgedRow[] = measured.rows.map((row) => {
    if ('skipped' in row) return row
    if (scenario.reference || row.reference) {
      const ratio = pairedRatio(row.baseline, row.subject)
      return { ...row, verdict: { ratio, pass: true, reference: true, reasons: [] } }
    }
    const reference = referenceRatio(scenario.target, row.case, all)
    return { ...row, verdict: judge(scenario.target, row.baseline, row.subject, reference) }
  })
  return { scenario, rows, error }
}

/** Other work on a 2-core machine skews every figure; say so rather than print them as if clean. */
function busyWarning(loadBefore: number): string {
  const busy = loadBefore > 0.5 * availableParallelism()
  return busy
    ? `\nWARNING: load average was ${loadBefore.toFixed(2)} before the run; figures may be skewed.`
    : ''
}

async function main(): Promise<void> {
  const startedAt = new Date().toISOString()
  const loadBefore = loadavg()[0] ?? 0
  const measured: Measured[] = []
  try {
    for (const scenario of selected(process.argv.slice(2))) measured.push(await measure(scenario))
  } finally {
    await stopAllServers()
  }
  const results = measured.map((m) => judged(m, measured))
  console.log(formatTable(results) + busyWarning(loadBefore))
  await mkdir(RESULTS_DIR, { recursive: true })
  const json = {
    started_at: startedAt,
    finished_at: new Date().toISOString(),
    node: process.version,
    cpus: availableParallelism(),
    load_average_before: loadBefore,
    settings: { ...ctx, postgresUrl: undefined },
    scenarios: results.map(({ scenario, rows, error }) => ({
      name: scenario.name,
      target: scenario.kind === 'limit' ? scenario.goal : scenario.target,
      rows,
      error,
    })),
  }
  await writeFile(`${RESULTS_DIR}results.json`, `${JSON.stringify(json, null, 2)}\n`)
  console.log(`\nResults written to .bench/results.json`)
  if (results.some((r) => r.error)) process.exitCode = 1
}

// Ctrl-C mid-run: stop the servers and remove their temp dirs before leaving.
process.once('SIGINT', () => {
  void stopAllServers().finally(() => process.exit(130))
})

await main()
