// What scripts/test.mjs runs on each pass, and in which order, and what it prints at the end.
//
// Which files run once. A test file that never reaches a database cannot differ by engine: its
// transitive relative imports (a regex walk, type-only imports left out: they are erased) include
// neither src/db/database.ts nor a runtime import of `pg` or `better-sqlite3`, and no file among them
// reads PARAPH_TEST_DB (test/harness.ts imports the first and reads the last). Such a file runs on
// one engine only. But the engines of scripts/test-all.sh run under different Node.js lines
// (PostgreSQL on 22, SQLite on 24), and a child process is where the lines have differed (a red CI
// run failed on 24 only, in a test that starts one): a file that starts processes — whose imports
// reach `node:child_process` or `node:worker_threads` (as the PDF child pool does), playwright-core
// (Chromium) or esbuild (its service binary) — still runs on
// both passes when they are separate invocations. When one invocation runs both engines, they share
// the Node.js line, and every database-free file runs once.
//
// The order: files slowest first, from the durations the last run saved in .tmp/test-times-<engine>.json
// (node --test starts files in the order given): with two or three at a time, a long file started
// last would otherwise run alone at the end. A file with no saved duration goes first (it may be long).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

const STATIC_IMPORT = /^(?:import|export)\s+(type\s+)?[^'"]*?\sfrom\s+'([^']+)'/gm
const SIDE_EFFECT_IMPORT = /^import\s+'([^']+)'/gm
const DYNAMIC_IMPORT = /import\(\s*'([^']+)'\s*\)/g
const DATABASE_MODULES = new Set(['pg', 'better-sqlite3'])
// Chromium (playwright-core) and esbuild's service are child processes too.
const PROCESS_MODULES = new Set([
  'node:child_process',
  'child_process',
  'node:worker_threads',
  'worker_threads',
  'playwright-core',
  'esbuild',
])

/** Runtime imports of one file: relative ones resolved to paths, bare ones as written. */
function importsOf(file, text) {
  const relativeOnes = []
  const bare = []
  const add = (specifier) => {
    if (specifier.startsWith('.')) relativeOnes.push(resolve(dirname(file), specifier))
    else bare.push(specifier)
  }
  for (const [, typeOnly, specifier] of text.matchAll(STATIC_IMPORT)) if (!typeOnly) add(specifier)
  for (const [, specifier] of text.matchAll(SIDE_EFFECT_IMPORT)) add(specifier)
  for (const [, specifier] of text.matchAll(DYNAMIC_IMPORT)) add(specifier)
  return { relativeOnes, bare }
}

/**
 * For each test file: whether it reaches a database and whether it starts processes, from its
 * transitive imports.
 */
export function classify(root, files) {
  const facts = new Map()
  const factsOf = (file) => {
    let known = facts.get(file)
    if (known) return known
    const text = existsSync(file) ? readFileSync(file, 'utf8') : ''
    const { relativeOnes, bare } = importsOf(file, text)
    known = {
      imports: relativeOnes,
      database:
        file === join(root, 'src/db/database.ts') ||
        text.includes('PARAPH_TEST_DB') ||
        bare.some((b) => DATABASE_MODULES.has(b)),
      processes: bare.some((b) => PROCESS_MODULES.has(b)),
    }
    facts.set(file, known)
    return known
  }
  const out = new Map()
  for (const file of files) {
    const seen = new Set()
    const stack = [resolve(root, file)]
    let database = false
    let processes = false
    while (stack.length) {
      const next = stack.pop()
      if (seen.has(next)) continue
      seen.add(next)
      const known = factsOf(next)
      database ||= known.database
      processes ||= known.processes
      stack.push(...known.imports)
    }
    out.set(file, { database, processes })
  }
  return out
}

/**
 * The files of one pass. `onceOn` is the engine whose pass runs the files that cannot differ;
 * `sameNodeLine` says whether every pass runs under this Node.js line (one invocation for all).
 */
export function filesForPass(files, facts, { engine, onceOn, sameNodeLine }) {
  if (!onceOn || engine === onceOn) return files
  return files.filter((file) => {
    const { database, processes } = facts.get(file)
    return database || (processes && !sameNodeLine)
  })
}

const timesPath = (root, engine) => join(root, '.tmp', `test-times-${engine}.json`)

/** Slowest first by the last saved durations; files never timed first of all, in their order. */
export function slowestFirst(root, engine, files) {
  let times = {}
  try {
    times = JSON.parse(readFileSync(timesPath(root, engine), 'utf8'))
  } catch {
    return files
  }
  const key = (file) => relative(root, resolve(root, file))
  return [...files].sort((a, b) => (times[key(b)] ?? Infinity) - (times[key(a)] ?? Infinity))
}

/**
 * Reads the durations written by scripts/test-times-reporter.mjs (one JSON line per file), saves
 * them for the next run's order, and returns them slowest first.
 */
export function saveTimes(root, engine, linesPath) {
  const times = {}
  let text = ''
  try {
    text = readFileSync(linesPath, 'utf8')
  } catch {}
  for (const line of text.split('\n').filter(Boolean)) {
    const { file, ms } = JSON.parse(line)
    times[relative(root, resolve(root, file))] = Math.round(ms)
  }
  const sorted = Object.entries(times).sort((a, b) => b[1] - a[1])
  if (sorted.length) {
    // Merged into the saved ones: a run of a few files keeps the others' durations for the next order.
    let saved = {}
    try {
      saved = JSON.parse(readFileSync(timesPath(root, engine), 'utf8'))
    } catch {}
    mkdirSync(join(root, '.tmp'), { recursive: true })
    const merged = Object.fromEntries(Object.entries({ ...saved, ...times }).sort((a, b) => b[1] - a[1]))
    writeFileSync(timesPath(root, engine), `${JSON.stringify(merged, null, 2)}\n`)
  }
  return sorted
}

/**
 * CPU time of this process's waited-for descendants so far (Linux: /proc/self/stat, in clock ticks of
 * 10 ms), or undefined elsewhere. A pass's CPU time beside its wall time says how busy the cores
 * were: well under cores × wall, the files wait (databases, browsers, timers) and more of them could
 * run at once.
 */
export function childrenCpuMs() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')
    // Fields 16 and 17 of stat(5) (cutime, cstime); this split starts at field 3.
    return (Number(fields[13]) + Number(fields[14])) * 10
  } catch {
    return undefined
  }
}

export const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`

export function minutes(ms) {
  const s = Math.round(ms / 1000)
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`
}
