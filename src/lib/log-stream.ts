// Where pino's lines go: standard output, written in batches without blocking the event loop.
//
// Why not pino.destination({ minLength }) alone: sonic-boom appends each line to its pending string
// and then measures that whole string's UTF-8 length, so with a 4 KB batch every line cost a
// flatten and a scan of up to 4 KB (a tenth of a GET /v1/health's CPU). Here a line is one array
// push; a batch is joined once and handed to sonic-boom, which writes it through libuv's thread pool
// (one round trip per batch, not per line).
import sonicBoom from 'sonic-boom'

// A CommonJS package: its class is a property of the default export.
const { SonicBoom } = sonicBoom

export interface LineSink {
  /** Queues text and writes it asynchronously. */
  write(text: string): unknown
  /** Writes what is queued (not a write already in flight) before returning. */
  flushSync(): void
  /** Writes text before returning, bypassing the queue: for the last lines at process exit. */
  writeSync(text: string): void
  on(event: 'drop', listener: (text: string) => void): unknown
}

export interface BatchedLinesOptions {
  /** A batch is handed to the sink once it holds this many characters. */
  batchChars?: number
  /** How long a line may wait for company before it is written anyway. */
  flushMs?: number
  /** Epoch milliseconds, for the line that reports dropped lines. */
  now?: () => number
}

export class BatchedLines {
  readonly #sink: LineSink
  readonly #batchChars: number
  readonly #now: () => number
  #lines: string[] = []
  #chars = 0
  #dropped = 0
  readonly #timer: NodeJS.Timeout | undefined

  constructor(
    sink: LineSink,
    { batchChars = 16_384, flushMs = 200, now = Date.now }: BatchedLinesOptions = {},
  ) {
    this.#sink = sink
    this.#batchChars = batchChars
    this.#now = now
    // A sink that cannot keep up (a stalled pipe) refuses batches past its cap: count the lines
    // and say so in the next batch, rather than grow without bound or block requests.
    sink.on('drop', (text) => {
      this.#dropped += countLines(text)
    })
    if (flushMs > 0) this.#timer = setInterval(() => this.flush(), flushMs).unref()
  }

  /** pino's stream interface: one serialized line, newline included. */
  write(line: string): void {
    this.#lines.push(line)
    this.#chars += line.length
    if (this.#chars >= this.#batchChars) this.flush()
  }

  /** Hands the pending lines to the sink as one string (written asynchronously). */
  flush(): void {
    const text = this.#take()
    if (text) this.#sink.write(text)
  }

  /**
   * Writes everything still pending before returning: for process exit, when an asynchronous
   * write would never happen. (A batch already in flight in libuv's thread pool is the sink's.)
   */
  flushSync(): void {
    const text = this.#take()
    this.#sink.flushSync()
    if (text) this.#sink.writeSync(text)
  }

  #take(): string {
    if (this.#lines.length === 0) return ''
    if (this.#dropped > 0) {
      this.#lines.unshift(droppedLine(this.#dropped, this.#now()))
      this.#dropped = 0
    }
    const text = this.#lines.join('')
    this.#lines = []
    this.#chars = 0
    return text
  }

  close(): void {
    clearInterval(this.#timer)
    this.flushSync()
  }
}

function countLines(text: string): number {
  let count = 0
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++
  return count
}

function droppedLine(count: number, time: number): string {
  return `${JSON.stringify({ level: 40, time, msg: `${count} log lines dropped: standard output could not keep up` })}\n`
}

/** At most this much waits for a slow standard output before lines are dropped. */
const MAX_PENDING_BYTES = 64 * 1024 * 1024

/** Standard output for the process's logger, flushed on exit (pino's own exit hook is not used). */
export function batchedStdout(): BatchedLines {
  const stdout = new SonicBoom({ fd: 1, sync: false, minLength: 0, maxLength: MAX_PENDING_BYTES })
  let atExit: InstanceType<typeof SonicBoom> | undefined
  const sink: LineSink = {
    write: (text) => stdout.write(text),
    flushSync: () => stdout.flushSync(),
    // A synchronous sonic-boom on the same descriptor: it retries a full pipe (EAGAIN) itself.
    writeSync: (text) => {
      atExit ??= new SonicBoom({ fd: 1, sync: true, minLength: 0 })
      atExit.write(text)
    },
    on: (event, listener) => stdout.on(event, listener),
  }
  const lines = new BatchedLines(sink)
  process.once('exit', () => {
    try {
      lines.flushSync()
    } catch {
      // standard output already closed: nothing more can be said
    }
  })
  return lines
}
