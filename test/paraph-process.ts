// The `paraph` binary as an operator runs it, for the tests that need real processes (the CLI, kills,
// faults): spawn, wait for a line, stop with SIGTERM or kill with SIGKILL.
import assert from 'node:assert/strict'
import { type ChildProcess, spawn } from 'node:child_process'
import { join } from 'node:path'
import { createAccount } from '../src/accounts/create-account.ts'
import { readConfig } from '../src/config.ts'
import { migrate } from '../src/db/database.ts'
import { createDeps } from '../src/deps.ts'

export const BIN = join(import.meta.dirname, '../bin/paraph.mjs')

export class ParaphProcess {
  readonly child: ChildProcess
  /** Everything the process printed so far (standard output and error, interleaved). */
  output = ''

  /**
   * `wrapper`: a command the binary runs under (`['unshare', '-m', …]`), its arguments first;
   * `node`: the Node.js that starts it (an older one starts the launcher of bin/supported-node.mjs).
   */
  constructor(args: string[], env: Record<string, string>, wrapper: string[] = [], node = process.execPath) {
    const [command, ...rest] = [...wrapper, node, BIN, ...args]
    this.child = spawn(command!, rest, {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const append = (chunk: Buffer) => {
      this.output += chunk
    }
    this.child.stdout?.on('data', append)
    this.child.stderr?.on('data', append)
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null
  }

  /**
   * Resolves with the first match in the output; rejects, with what the process printed, when it
   * exits first or at the deadline. A first start bundles the entry points and makes the sealing
   * key: on a loaded CI machine that has taken over 20 s, so the default deadline is generous.
   */
  waitFor(pattern: RegExp, ms = 60_000): Promise<RegExpMatchArray> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const match = this.output.match(pattern)
        if (!match) return false
        done()
        resolve(match)
        return true
      }
      const onExit = () => {
        if (check()) return
        done()
        reject(
          new Error(
            `exited (${this.child.exitCode ?? this.child.signalCode}) before ${pattern}:\n${this.output}`,
          ),
        )
      }
      const timer = setTimeout(() => {
        done()
        reject(new Error(`no ${pattern} within ${ms} ms in:\n${this.output}`))
      }, ms)
      const done = () => {
        clearTimeout(timer)
        this.child.stdout?.off('data', check)
        this.child.stderr?.off('data', check)
        this.child.off('exit', onExit)
      }
      if (check()) return
      if (!this.alive) return onExit()
      this.child.stdout?.on('data', check)
      this.child.stderr?.on('data', check)
      this.child.once('exit', onExit)
    })
  }

  /** Resolves with the exit code once the process has exited (null when a signal ended it). */
  exited(): Promise<number | null> {
    if (!this.alive) return Promise.resolve(this.child.exitCode)
    return new Promise((resolve) => this.child.once('exit', (code) => resolve(code)))
  }

  /** SIGTERM, then the exit code; SIGKILL if it has not exited within `ms`. */
  async stop(ms = 30_000): Promise<number | null> {
    if (!this.alive) return this.child.exitCode
    this.child.kill('SIGTERM')
    const timer = setTimeout(() => this.child.kill('SIGKILL'), ms)
    const code = await this.exited()
    clearTimeout(timer)
    return code
  }

  async kill(): Promise<void> {
    this.child.kill('SIGKILL')
    await this.exited()
  }

  /** The log lines (pino JSON) printed so far whose message matches. */
  logLines(message: RegExp): Array<Record<string, unknown>> {
    return this.output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => message.test(String(entry.msg)))
  }
}

/** Runs a command to its end: its exit code and what it printed on each stream. */
export function runParaph(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (d: Buffer) => {
    stdout += d
  })
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d
  })
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })))
}

/** Migrates the database of `env` and creates an account in it; returns its test key. */
export async function prepareDatabase(env: Record<string, string>): Promise<string> {
  const deps = await createDeps(readConfig(env))
  try {
    await migrate(deps.db, deps.engine)
    return (await createAccount(deps, { name: 'Processes' })).test_key
  } finally {
    await deps.close()
  }
}

/** `paraph serve` (PORT=0) once it listens, with the address it bound. */
export async function startServe(
  args: string[],
  env: Record<string, string>,
): Promise<{ process: ParaphProcess; base: string }> {
  const started = new ParaphProcess(['serve', ...args], { PORT: '0', ...env })
  try {
    const [, base] = await started.waitFor(/Paraph listening on (http:\/\/127\.0\.0\.1:\d+)/)
    assert.ok(base)
    return { process: started, base }
  } catch (error) {
    // One that never said it listens is nobody's to stop: killed here, or it would keep the test
    // file's process alive.
    await started.kill()
    throw error
  }
}

/** Polls `probe` until it returns a value, failing the test at the deadline. */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    assert.ok(Date.now() < deadline, `${what} within ${ms / 1000} s`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
