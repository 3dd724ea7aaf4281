// Where pino's lines go: standard output, written in batches.
//
// Why not pino.destination({ minLength }) alone: sonic-boom appends each line to its pending string
// and then measures that whole string's UTF-8 length, so with a 4 KB batch every line cost a
// flatten and a scan of up to 4 KB (a tenth of a GET /v1/health's CPU). Here a line is one array
// push, and a batch is joined once and written with one write(2).
//
// Writes are synchronous, as with pino's default destination: one write of ~16 KB every few dozen
// requests costs less than a round trip through libuv's thread pool, lines keep their order, and
// nothing can be in flight when the process exits (an asynchronous write still queued at exit is
// lost). The price, the same as pino's default: a standard output nobody reads stalls the process.
import sonicBoom from 'sonic-boom'

// A CommonJS package: its class is a property of the default export.
const { SonicBoom } = sonicBoom

export interface LineSink {
  /** Writes text before returning. */
  write(text: string): unknown
  /** Writes whatever the sink itself still holds, before returning. */
  flushSync(): void
}

export interface BatchedLinesOptions {
  /** A batch is written once it holds this many characters. */
  batchChars?: number
  /** How long a line may wait for company before it is written anyway (0: only by size or flush). */
  flushMs?: number
}

export class BatchedLines {
  readonly #sink: LineSink
  readonly #batchChars: number
  #lines: string[] = []
  #chars = 0
  readonly #timer: NodeJS.Timeout | undefined

  constructor(sink: LineSink, { batchChars = 16_384, flushMs = 200 }: BatchedLinesOptions = {}) {
    this.#sink = sink
    this.#batchChars = batchChars
    if (flushMs > 0) this.#timer = setInterval(() => this.flush(), flushMs).unref()
  }

  /** pino's stream interface: one serialized line, newline included. */
  write(line: string): void {
    this.#lines.push(line)
    this.#chars += line.length
    if (this.#chars >= this.#batchChars) this.flush()
  }

  /** Writes the pending lines as one string. */
  flush(): void {
    if (this.#lines.length === 0) return
    const text = this.#lines.join('')
    this.#lines = []
    this.#chars = 0
    this.#sink.write(text)
  }

  /** Everything pending written before returning: for process exit. */
  flushSync(): void {
    this.flush()
    this.#sink.flushSync()
  }

  close(): void {
    clearInterval(this.#timer)
    this.flushSync()
  }
}

/** Standard output for the process's logger, flushed on exit (pino's own exit hook is not used). */
export function batchedStdout(): BatchedLines {
  // sonic-boom retries a full non-blocking pipe (EAGAIN) itself.
  const lines = new BatchedLines(new SonicBoom({ fd: 1, sync: true, minLength: 0 }))
  process.once('exit', () => {
    try {
      lines.flushSync()
    } catch {
      // standard output already closed: nothing more can be said
    }
  })
  return lines
}
