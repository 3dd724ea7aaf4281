// A pool of long-lived child processes that do the work untrusted files could turn against the
// server: reading uploaded PDFs (pdf/read/inspector-child.ts), making final PDFs
// (pdf/finalizer/finalizer-child.ts), converting DOCX (render/docx-child.ts) and finding tags in HTML
// (render/html-tag-child.ts). It knows none of them: each caller names its child's script. Spawning
// a child per request cost more than a whole request (loading pdf-lib alone takes a warm start
// ~50 ms, far more on a busy machine); a warm child answers at once. Each child runs under an OS
// memory limit, each request under a wall-clock timeout, and the server only ever receives the
// child's small JSON answer. The protocol: one JSON object per line each way, the child's first
// line `{"ready":true}`, each answer carrying its request's `id`.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import type { Socket } from 'node:net'
import { fileURLToPath } from 'node:url'
import { nodeReservedBytes, sourceChildEnv, withMemoryLimit } from './memory-limit.ts'

/** A child's answer, or what became of a request the child did not answer. */
export type Outcome<Answer> = Answer | { ok: false; reason: 'timeout' | 'crashed' }

export interface PoolOptions<Answer> {
  /** What the child does, for messages: `PDF inspector`. */
  name: string
  /**
   * The child's entry point: its source, `new URL('./x-child.ts', import.meta.url)` written where
   * the pool is made (run from the sources: tests, tsx), and the name of its bundle, which
   * scripts/build.ts writes beside the server's (`pdf-inspector.mjs`).
   */
  script: { source: URL; bundle: string }
  size: number
  memoryLimitBytes: number
  /** Whether a child is replaced after giving this answer (to return memory a large file grew). */
  recycleAfter?(answer: Answer): boolean
}

/** A child's first line: it has loaded what it needs and reads requests. */
export interface ReadyMessage {
  ready: true
}

const MiB = 1024 * 1024
// Under too small a memory limit node may hang at start rather than exit (measured at 16–32 MiB
// of RLIMIT_DATA); a warm start takes ~50 ms, ~300 ms through tsx — but past 10 s through tsx on
// 2 cores at load average 10 (a full test run beside three others), which failed requests that
// only had to wait. 30 s still ends a hung start.
const START_TIMEOUT_MS = 30_000
// Enough of stderr to say why a child could not start.
const STDERR_KEEP = 2048

interface Job<Answer> {
  request: { id: number }
  /** Whose request (an account): the queue is shared fairly between owners. */
  owner: string
  timeoutMs: number
  resolve(outcome: Outcome<Answer>): void
  reject(error: Error): void
}

interface Child<Answer> {
  process: ChildProcessWithoutNullStreams
  ready: boolean
  job?: Job<Answer> | undefined
  timer?: NodeJS.Timeout | undefined
  stdout: string
  stderr: string
}

export class ChildPool<Request extends object, Answer extends { id: number }> {
  private readonly children = new Set<Child<Answer>>()
  private readonly queue: Job<Answer>[] = []
  private nextId = 1
  private closed = false

  private readonly options: PoolOptions<Answer>
  constructor(options: PoolOptions<Answer>) {
    this.options = options
  }

  /**
   * Resolves with the child's answer; rejects only on a server fault (no child could start).
   * `owner` names whose request it is (an account), for sharing the children fairly.
   */
  run(request: Request, timeoutMs: number, owner = ''): Promise<Outcome<Answer>> {
    if (this.closed) return Promise.reject(new Error(`the ${this.options.name} is closed`))
    return new Promise((resolve, reject) => {
      this.queue.push({ request: { ...request, id: this.nextId++ }, owner, timeoutMs, resolve, reject })
      this.dispatch()
    })
  }

  /** Kills every child: for shutdown and tests. Requests still waiting are rejected. */
  close(): void {
    this.closed = true
    const error = new Error(`the ${this.options.name} was closed`)
    for (const job of this.queue.splice(0)) job.reject(error)
    for (const child of [...this.children]) {
      child.job?.reject(error)
      child.job = undefined
      this.retire(child)
    }
  }

  /**
   * Each free or startable child takes a request of the owner with the fewest requests in the
   * children, then with the fewest waiting, the oldest first among equals (a flood from
   * one account does not make another's request wait behind all of it); with one owner, plain FIFO.
   */
  private dispatch(): void {
    while (this.queue.length > 0) {
      let child = [...this.children].find((candidate) => !candidate.job)
      if (!child) {
        if (this.children.size >= this.options.size) return
        child = this.spawn()
      }
      child.job = this.queue.splice(this.fairestJob(), 1)[0]!
      keepAlive(child, true)
      if (child.ready) this.send(child)
    }
  }

  /** Index in the queue of the next request to run. */
  private fairestJob(): number {
    const load = new Map<string, number>()
    const add = (owner: string, weight: number) => load.set(owner, (load.get(owner) ?? 0) + weight)
    // Running weighs more than any number of waiting requests; the queue holds far fewer than 1e6.
    for (const child of this.children) if (child.job) add(child.job.owner, 1e6)
    for (const job of this.queue) add(job.owner, 1)
    let best = 0
    for (let i = 1; i < this.queue.length; i++) {
      if (load.get(this.queue[i]!.owner)! < load.get(this.queue[best]!.owner)!) best = i
    }
    return best
  }

  private spawn(): Child<Answer> {
    const { memoryLimitBytes } = this.options
    // V8 stops its own heap at half the limit, failing cleanly before the kernel refuses a page.
    const heapMiB = Math.max(1, Math.floor(memoryLimitBytes / MiB / 2))
    const script = childScript(this.options.script)
    const [file, args] = withMemoryLimit(
      process.execPath,
      [`--max-old-space-size=${heapMiB}`, ...script],
      // The entry's flags (a loader, from the sources) change what node reserves before it runs.
      memoryLimitBytes + nodeReservedBytes(script.slice(0, -1)),
    )
    const spawned = spawn(file, args, { stdio: 'pipe', env: fromSources() ? sourceChildEnv() : undefined })
    const child: Child<Answer> = { process: spawned, ready: false, stdout: '', stderr: '' }
    this.children.add(child)
    // Children never keep the server alive on their own; closing stdin is how they learn it exited.
    spawned.unref()
    for (const stream of [spawned.stdin, spawned.stdout, spawned.stderr]) (stream as Socket).unref()
    // A write to a child that just died fails with EPIPE; 'close' below reports the death.
    spawned.stdin.on('error', () => {})
    spawned.stdout.setEncoding('utf8').on('data', (chunk: string) => this.read(child, chunk))
    spawned.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      child.stderr = (child.stderr + chunk).slice(-STDERR_KEEP)
    })
    spawned.on('error', (error) => this.lost(child, error.message))
    spawned.on('close', (code, signal) => this.lost(child, `exit ${code ?? signal}`))
    child.timer = setTimeout(() => {
      spawned.kill('SIGKILL')
      this.lost(child, `not ready after ${START_TIMEOUT_MS / 1000} s`)
    }, START_TIMEOUT_MS).unref()
    return child
  }

  private send(child: Child<Answer>): void {
    const job = child.job!
    child.process.stdin.write(`${JSON.stringify(job.request)}\n`)
    child.timer = setTimeout(() => {
      child.job = undefined
      this.retire(child)
      job.resolve({ ok: false, reason: 'timeout' })
    }, job.timeoutMs)
  }

  private read(child: Child<Answer>, chunk: string): void {
    const lines = (child.stdout + chunk).split('\n')
    child.stdout = lines.pop()!
    for (const line of lines) {
      const message = parse<Answer>(line)
      if (!message) {
        // Our own child wrote something else: treat it as broken, never throw in the server.
        child.process.kill('SIGKILL')
        this.lost(child, 'wrote a malformed line')
        return
      }
      if ('ready' in message) {
        clearTimeout(child.timer)
        child.ready = true
        if (child.job) this.send(child)
      } else if (child.job?.request.id === message.id) {
        this.answered(child, message)
      }
    }
  }

  private answered(child: Child<Answer>, answer: Answer): void {
    const job = child.job!
    clearTimeout(child.timer)
    child.job = undefined
    keepAlive(child, false)
    if (this.options.recycleAfter?.(answer)) this.retire(child)
    job.resolve(answer)
    this.dispatch()
  }

  /** Kills a child on purpose (timeout, recycling, close) and starts its replacement. */
  private retire(child: Child<Answer>): void {
    if (!this.children.delete(child)) return
    clearTimeout(child.timer)
    child.process.kill('SIGKILL')
    this.replace(child)
  }

  /** A child gone on its own: at start (a server fault) or mid-request (memory limit, crash). */
  private lost(child: Child<Answer>, how: string): void {
    if (!this.children.delete(child)) return
    clearTimeout(child.timer)
    const { job } = child
    if (job && !child.ready) {
      const stderr = child.stderr.trim().split('\n').at(-1) ?? ''
      job.reject(new Error(`the ${this.options.name} could not start (${how}): ${stderr}`.trim()))
    } else job?.resolve({ ok: false, reason: 'crashed' })
    this.replace(child)
  }

  /**
   * A child that had started is replaced at once, so the next upload finds a warm one; one that
   * never started is not, lest a broken setup respawn forever. Waiting requests get children.
   */
  private replace(gone: Child<Answer>): void {
    if (this.closed) return
    if (gone.ready && this.children.size < this.options.size) this.spawn()
    this.dispatch()
  }
}

/**
 * A busy child keeps this process alive until it answers or its exit is seen (both its stdout
 * and its process handle); an idle one never does.
 */
function keepAlive<Answer>(child: Child<Answer>, busy: boolean): void {
  const handles = [child.process, child.process.stdout as Socket]
  for (const handle of handles) busy ? handle.ref() : handle.unref()
}

function parse<Answer>(line: string): Answer | ReadyMessage | undefined {
  try {
    return JSON.parse(line)
  } catch {
    return undefined
  }
}

/**
 * From the sources (tests, tsx), the child runs from its .ts file with this process's loader
 * flags; from the bundle (bin/paraph.mjs), from the child bundle written beside it.
 */
function childScript(script: PoolOptions<unknown>['script']): string[] {
  if (!fromSources()) return [fileURLToPath(new URL(`./${script.bundle}`, import.meta.url))]
  return [...loaderFlags(process.execArgv), fileURLToPath(script.source)]
}

/** Run from the sources (tests, tsx) rather than from the bundle. */
const fromSources = () => import.meta.url.endsWith('.ts')

// Only flags that load code: --test, --inspect or --cpu-prof would misbehave in a child.
const LOADER_FLAGS = new Set(['--import', '--require', '-r', '--loader', '--experimental-loader'])

function loaderFlags(execArgv: string[]): string[] {
  const kept: string[] = []
  for (let i = 0; i < execArgv.length; i++) {
    const flag = execArgv[i]!
    const name = flag.split('=')[0]!
    if (!LOADER_FLAGS.has(name)) continue
    if (flag.includes('=')) kept.push(flag)
    else kept.push(flag, execArgv[++i]!)
  }
  return kept
}

/**
 * The pools of one kind of child, one per (memory limit, size), each made on first use: the
 * server uses the defaults; a test asking for a smaller limit gets a pool of its own.
 */
export class PoolsByLimits<Request extends object, Answer extends { id: number }> {
  readonly #pools = new Map<string, ChildPool<Request, Answer>>()

  private readonly options: Omit<PoolOptions<Answer>, 'size' | 'memoryLimitBytes'>
  private readonly defaults: { size: number; memoryLimitBytes: number }
  constructor(
    options: Omit<PoolOptions<Answer>, 'size' | 'memoryLimitBytes'>,
    defaults: { size: number; memoryLimitBytes: number },
  ) {
    this.options = options
    this.defaults = defaults
  }

  get(limits: { memoryLimitBytes?: number; poolSize?: number } = {}): ChildPool<Request, Answer> {
    const memoryLimitBytes = limits.memoryLimitBytes ?? this.defaults.memoryLimitBytes
    const size = limits.poolSize ?? this.defaults.size
    const key = `${memoryLimitBytes}/${size}`
    let pool = this.#pools.get(key)
    if (!pool) {
      pool = new ChildPool<Request, Answer>({ ...this.options, size, memoryLimitBytes })
      this.#pools.set(key, pool)
    }
    return pool
  }

  /** Kills every child of every pool (shutdown, tests); the next get() starts afresh. */
  close(): void {
    for (const pool of this.#pools.values()) pool.close()
    this.#pools.clear()
  }
}
