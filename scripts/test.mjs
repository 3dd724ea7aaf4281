// Runs every *.test.ts once per engine (SQLite, then PostgreSQL) with node's test runner, and ends
// with one summary line. `npm test -- sqlite` or `-- postgres` runs one engine; further arguments
// are test files.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const root = new URL('..', import.meta.url).pathname
const args = process.argv.slice(2)
const engines = args.filter((a) => a === 'sqlite' || a === 'postgres')
const chosen = args.filter((a) => a.endsWith('.ts'))

function find(dir) {
  const out = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
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

const files = chosen.length ? chosen : [...find(join(root, 'src')), ...find(join(root, 'test'))].sort()
const tapDir = mkdtempSync(join(tmpdir(), 'paraph-tap-'))
let passed = 0
let failed = 0
let exitCode = 0

for (const engine of engines.length ? engines : ['sqlite', 'postgres']) {
  console.log(`\n== ${files.length} test files on ${engine}`)
  const tap = join(tapDir, `${engine}.tap`)
  const result = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--test',
      '--test-concurrency=2',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tap}`,
      ...files,
    ],
    { cwd: root, stdio: 'inherit', env: { ...process.env, PARAPH_TEST_DB: engine } },
  )
  const text = readFileSync(tap, 'utf8')
  const count = (name) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(text)?.[1] ?? 0)
  passed += count('pass')
  failed += count('fail') + count('cancelled')
  if (result.status !== 0) exitCode = 1
  console.log(
    `== ${engine}: ${count('pass')} passed, ${count('fail')} failed, ${count('cancelled')} cancelled`,
  )
}
rmSync(tapDir, { recursive: true, force: true })
if (passed === 0) exitCode = 1
console.log(`\ntests: ${passed} passed, ${failed} failed`)
process.exit(exitCode)
