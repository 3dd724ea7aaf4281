// A `paraph worker` (or a floor process) timed from its own start line, for the rows that measure
// how fast queued work drains (mail, webhooks): the clock starts when the
// process logs that it started, not when it was spawned (bundling and connecting are not the
// work), and its CPU is read over the same span.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { openDatabase } from '../src/db/database.ts'
import { cpuMicros, type ServerProcess, spawnServer, stopServer } from './processes.ts'

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url))

/** Paraph's database behind a DATABASE_URL, opened from the bench process (to read what was queued). */
export function openBenchDatabase(databaseUrl: string) {
  return openDatabase(
    databaseUrl.startsWith('sqlite:')
      ? { engine: 'sqlite', path: databaseUrl.slice('sqlite:'.length) }
      : { engine: 'postgres', url: databaseUrl },
  )
}

/** The epoch ms of the first log line of `file` for which `pick` returns a number (polled). */
async function timeFromLog(
  file: string,
  pick: (line: Record<string, unknown>) => number | undefined,
): Promise<number> {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.startsWith('{')) continue
      const time = pick(JSON.parse(line) as Record<string, unknown>)
      if (time !== undefined) return time
    }
    await sleep(10)
  }
  throw new Error(`no start line in ${file}:\n${readFileSync(file, 'utf8').slice(-2000)}`)
}

/** `paraph worker` logs `paraph worker started`; a floor process logs `{ started: epoch ms }`. */
const startLine = (line: Record<string, unknown>) =>
  line.msg === 'paraph worker started' ? Number(line.time) : (line.started as number | undefined)

export interface TimedRun {
  /** Epoch ms of the process's start line. */
  startedAt: number
  /** Spawn → start line: what start-up took (not in the timing). */
  startUpMs: number
  /** The process's CPU from its start line until `until` resolved; null where it cannot be read. */
  cpuMicros: number | null
}

/** Spawns the process, waits for its start line, then for `until`; always stops it. */
export async function timedRun(
  dir: string,
  name: string,
  args: string[],
  env: Record<string, string>,
  until: (child: ServerProcess) => Promise<void>,
): Promise<TimedRun> {
  const spawnedAt = Date.now()
  const child = spawnServer(name, args, {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? dir, ...env },
    port: 0,
    logFile: join(dir, `${name}.log`),
  })
  try {
    const startedAt = await timeFromLog(child.logFile, startLine)
    const cpuAtStart = cpuMicros(child)
    await until(child)
    const cpuAtEnd = cpuMicros(child)
    return {
      startedAt,
      startUpMs: startedAt - spawnedAt,
      cpuMicros: cpuAtStart === null || cpuAtEnd === null ? null : cpuAtEnd - cpuAtStart,
    }
  } finally {
    await stopServer(child)
  }
}
