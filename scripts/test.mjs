// Runs every *.test.ts on each engine (SQLite, then PostgreSQL) with node's test runner, and ends
// with, per engine, its wall time and its slowest twenty files, then every failed test by name
// (scripts/tap-failures.mjs) and one summary line.
// `npm test -- sqlite` or `-- postgres` runs one engine; further arguments are test files.
//
// A file that can differ by nothing between the passes runs on one pass only (scripts/test-plan.mjs
// decides from its imports): a file that never reaches a database runs once; when the passes are
// separate invocations under different Node.js lines (scripts/test-all.sh: PostgreSQL on Node 22,
// SQLite on Node 24, with `--once-on=sqlite`), a database-free file that starts processes (the PDF
// child pool, Chromium, any child_process) still runs on both, since that is where the lines have
// differed. Without --once-on, one engine alone runs every file. Files run slowest first, from the
// durations the last run saved in .tmp/test-times-<engine>.json.
import { spawnSync } from 'node:child_process'
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { tapFailures } from './tap-failures.mjs'
import {
  childrenCpuMs,
  classify,
  filesForPass,
  minutes,
  saveTimes,
  seconds,
  slowestFirst,
} from './test-plan.mjs'

const root = new URL('..', import.meta.url).pathname
const args = process.argv.slice(2)
const engines = args.filter((a) => a === 'sqlite' || a === 'postgres')
const chosen = args.filter((a) => a.endsWith('.ts'))

function find(dir) {
  const out = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (name === 'node_modules') continue
    if (statSync(path).isDirectory()) out.push(...find(path))
    else if (name.endsWith('.test.ts')) out.push(path)
  }
  return out
}

// The import rules of docs/architecture.md first (scripts/lint-imports.ts): a wrong-way import or a
// folder cycle fails the run with dependency-cruiser's report, before anything is built. A run of
// chosen files skips it (`npm run lint:imports` runs it alone).
if (!chosen.length) {
  const rules = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'scripts/lint-imports.ts')], {
    cwd: root,
    stdio: 'inherit',
  })
  if (rules.status !== 0) process.exit(1)
}

// Tests that start the `paraph` binary run the build (bin/paraph.mjs builds nothing): make it fresh.
const built = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'scripts/build.ts')], {
  cwd: root,
  stdio: 'inherit',
})
if (built.status !== 0) process.exit(1)

// sdks/: the client packages' tests (docs/sdks.md), against a Paraph the test starts.
const files = chosen.length
  ? chosen
  : [...find(join(root, 'src')), ...find(join(root, 'test')), ...find(join(root, 'sdks'))].sort()
const passes = engines.length ? engines : ['sqlite', 'postgres']
// --once-on=<engine>: the files that cannot differ run on that engine's pass only. Both engines in
// one invocation share this Node.js line: the first pass takes them.
const onceOn =
  args.find((a) => a.startsWith('--once-on='))?.slice('--once-on='.length) ??
  (passes.length > 1 ? passes[0] : undefined)
if (onceOn !== undefined && onceOn !== 'sqlite' && onceOn !== 'postgres') {
  console.error(`--once-on names an engine, sqlite or postgres, not ${onceOn}`)
  process.exit(2)
}
const facts = classify(root, files)
// Two files at a time on two cores: with 3 or 4 a mixed set of 20 files (database, browser, PDF,
// the binary, pure) finished no sooner, each file just ran longer (they are CPU-bound); the wall
// and CPU times printed at the end say when another machine would gain from more.
const concurrency = Number(process.env.PARAPH_TEST_CONCURRENCY ?? 2)
// Every file is a process that loads most of the app and its packages again: V8's code cache, kept
// between runs (per Node.js version), saves 0.23 s of the 3.3 s of CPU a small database test costs.
const compileCache = process.env.NODE_COMPILE_CACHE ?? join(root, '.tmp', 'node-compile-cache')
// Node.js runs the test files' TypeScript itself (type stripping, on by default since 22.18; the code
// keeps to erasable syntax, `erasableSyntaxOnly` in tsconfig.json): 0.6 s less CPU per file than
// tsx's loader, which an older Node.js 22 still uses.
const typescriptFlags = process.features.typescript ? [] : ['--import', 'tsx']
const tapDir = mkdtempSync(join(tmpdir(), 'paraph-tap-'))
let passed = 0
let failed = 0
let exitCode = 0
const summaries = []

for (const engine of passes) {
  const passFiles = slowestFirst(
    root,
    engine,
    filesForPass(files, facts, { engine, onceOn, sameNodeLine: passes.length > 1 }),
  )
  const once = files.length - passFiles.length
  console.log(
    `\n== ${passFiles.length} test files on ${engine}${once ? ` (${once} that cannot differ run on ${onceOn} only)` : ''}`,
  )
  const tap = join(tapDir, `${engine}.tap`)
  const times = join(tapDir, `${engine}.times`)
  const started = Date.now()
  const cpuBefore = childrenCpuMs()
  const result = spawnSync(
    process.execPath,
    [
      ...typescriptFlags,
      '--test',
      `--test-concurrency=${concurrency}`,
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tap}`,
      `--test-reporter=${join(root, 'scripts/test-times-reporter.mjs')}`,
      `--test-reporter-destination=${times}`,
      ...passFiles,
    ],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, PARAPH_TEST_DB: engine, NODE_COMPILE_CACHE: compileCache },
    },
  )
  const wall = Date.now() - started
  const cpu = cpuBefore === undefined ? undefined : childrenCpuMs() - cpuBefore
  const text = readFileSync(tap, 'utf8')
  const count = (name) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(text)?.[1] ?? 0)
  passed += count('pass')
  failed += count('fail') + count('cancelled')
  if (result.status !== 0) exitCode = 1
  const line = `== ${engine}: ${count('pass')} passed, ${count('fail')} failed, ${count('cancelled')} cancelled`
  console.log(line)
  summaries.push({
    engine,
    line,
    files: passFiles.length,
    wall,
    cpu,
    slowest: saveTimes(root, engine, times).slice(0, 20),
    failures: tapFailures(text, root),
  })
}
rmSync(tapDir, { recursive: true, force: true })
if (passed === 0) exitCode = 1
// The run's last screen: each pass's times and slowest files, then every failed test by name. With
// PARAPH_TEST_RECAP set (scripts/test-all.sh), the failures and the counts are appended to that file
// too, so a script running several invocations can end on all of them.
const recap = []
for (const { engine, line, files: count, wall, cpu, slowest, failures } of summaries) {
  const cpuNote = cpu === undefined ? '' : `, ${minutes(cpu)} of CPU on ${availableParallelism()} cores`
  const header = `${line}; ${count} files in ${minutes(wall)}${cpuNote} (node ${process.version}, ${concurrency} at a time)`
  console.log(`\n${header}`)
  if (slowest.length) console.log(`   slowest files on ${engine}:`)
  for (const [file, ms] of slowest) console.log(`   ${seconds(ms).padStart(8)}  ${file}`)
  recap.push(header)
  if (failures.length) recap.push(`   failed on ${engine}:`)
  for (const { where, name, why } of failures.slice(0, 40)) {
    recap.push(`     ✖ ${where}  ${name}`, `         ${why.slice(0, 300)}`)
  }
  if (failures.length > 40) recap.push(`     … and ${failures.length - 40} more, above`)
}
const failedLines = recap.filter((l) => !l.startsWith('=='))
if (failedLines.length) console.log(`\n${failedLines.join('\n')}`)
console.log(`\ntests: ${passed} passed, ${failed} failed`)
if (process.env.PARAPH_TEST_RECAP) appendFileSync(process.env.PARAPH_TEST_RECAP, `${recap.join('\n')}\n`)
process.exit(exitCode)
