// `npm run bench`: runs every scenario in the list below, prints one table, writes .bench/results.json.
// `npm run bench -- WORD…` runs only the scenarios whose name contains a WORD.
// Servers run in child processes; this process generates load (and serves the PDFs Paraph fetches
// by URL, and times pdf-lib for reference). Exit code 0 even when a target is missed (a benchmark,
// not a test); 1 only when a scenario could not run.
import { mkdir, writeFile } from 'node:fs/promises'
import { availableParallelism, loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import type { BenchContext, Scenario } from './scenario.ts'
import { createSubmissionScenario } from './scenarios/create-submission.ts'
import { getSubmissionScenario } from './scenarios/get-submission.ts'
import { getSubmissionFloorScenario } from './scenarios/get-submission-floor.ts'
import { healthScenario } from './scenarios/health.ts'
import { soakScenario } from './scenarios/soak.ts'
import { urlMemoryScenario } from './scenarios/url-memory.ts'
import { stopAllServers } from './servers.ts'
import { formatTable, type JudgedRow, type ScenarioResult } from './table.ts'
import { judge, judgeLimit } from './verdict.ts'

/** Every scenario, in the order its rows are printed. Each issue appends its own. */
const SCENARIOS: Scenario[] = [
  healthScenario,
  // Issue #4
  getSubmissionScenario,
  getSubmissionFloorScenario,
  createSubmissionScenario,
  urlMemoryScenario,
  // Issue #10
  soakScenario,
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

const ctx: BenchContext = {
  postgresUrl: 'postgres://postgres@127.0.0.1:5432/test',
  warmUpSeconds: 5,
  measureSeconds: 24,
  rounds: 12,
  connections: 10,
  fixedRateShare: 0.5,
  soakSeconds: soakSeconds(),
}

const RESULTS_DIR = fileURLToPath(new URL('../.bench/', import.meta.url))

async function judgedRows(scenario: Scenario): Promise<ScenarioResult> {
  if (scenario.kind === 'limit') {
    const rows = await scenario.run(ctx)
    return {
      scenario,
      rows: rows.map((row) => ('skipped' in row ? row : { ...row, verdict: judgeLimit(row) })),
    }
  }
  const rows: JudgedRow[] = (await scenario.run(ctx)).map((row) =>
    'skipped' in row
      ? row
      : {
          ...row,
          verdict: {
            ...judge(scenario.target, row.baseline, row.subject),
            ...(scenario.reference && { reference: true }),
          },
        },
  )
  return { scenario, rows }
}

async function runScenario(scenario: Scenario): Promise<ScenarioResult> {
  console.error(`bench: ${scenario.name} …`)
  try {
    return await judgedRows(scenario)
  } catch (error) {
    return {
      scenario,
      rows: [],
      error: error instanceof Error ? error.message : String(error),
    } as ScenarioResult
  }
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
  const results: ScenarioResult[] = []
  try {
    for (const scenario of selected(process.argv.slice(2))) results.push(await runScenario(scenario))
  } finally {
    await stopAllServers()
  }
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
