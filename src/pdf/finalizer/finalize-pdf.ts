// Makes a submission's sealed final PDF and sealed audit PDF in a warm child process
// (finalizer-child.ts) under a memory limit and a timeout, as intake reads uploads: one hostile
// stored document fails its own finalization, cleanly, and never takes the server down. The
// document as it stands is made by the same child code in a pool of its own, so a
// signer's download never waits behind a finalization, nor the other way round.
import { PoolsByLimits } from '../../child-pool/child-pool.ts'
import type {
  CurrentPdfAnswer,
  CurrentPdfRequest,
  FinalFacts,
  FinalizeAnswer,
  FinalizeRequest,
  FinalizeTimings,
  MadeFile,
} from './finalizer-protocol.ts'

const MiB = 1024 * 1024
// RLIMIT_DATA of the child. A 500-page 50 MB document is parsed whole by pdf-lib and copied into
// the merged document, then saved: well beyond intake's 512 MiB, so this has more room.
const DEFAULT_MEMORY_LIMIT_BYTES = 1536 * MiB
const DEFAULT_TIMEOUT_MS = 120_000
// A child that made a large file is replaced, so memory the work grew into goes back to the OS.
const RECYCLE_AFTER_BYTES = 16 * MiB

/** `message` is for the API client; `detail`, when set, is the internal cause, for the log. */
export class FinalizeError extends Error {
  override readonly name = 'FinalizeError'
  readonly detail?: string
  constructor(message: string, detail?: string) {
    super(message)
    this.detail = detail
  }
}

export interface FinalizeOptions {
  timeoutMs?: number
  memoryLimitBytes?: number
}

const pools = new PoolsByLimits<FinalizeRequest, FinalizeAnswer>(
  {
    name: 'PDF finalizer',
    script: { source: new URL('./finalizer-child.ts', import.meta.url), bundle: 'pdf-finalizer.mjs' },
    recycleAfter: (answer) => !answer.ok || answer.final.bytes > RECYCLE_AFTER_BYTES,
  },
  // One at a time per process: a large document holds the memory it needs until it is done.
  { size: 1, memoryLimitBytes: DEFAULT_MEMORY_LIMIT_BYTES },
)

/** The hashes and sizes of the two files written, and the child's timings; FinalizeError with a one-line cause otherwise. */
export async function finalizePdf(
  request: FinalizeRequest,
  options: FinalizeOptions = {},
): Promise<{ final: MadeFile; audit: MadeFile; timings: FinalizeTimings; facts: FinalFacts }> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const outcome = await pools.get(options).run(request, timeoutMs)
  if (outcome.ok) {
    const { final, audit, timings, facts } = outcome
    return { final, audit, timings, facts }
  }
  switch (outcome.reason) {
    case 'timeout':
      throw new FinalizeError(`making the final PDF took longer than ${timeoutMs / 1000} s`)
    case 'crashed':
      throw new FinalizeError('making the final PDF exhausted the memory allowed or crashed')
    case 'failed':
      throw new FinalizeError(outcome.cause, outcome.detail)
  }
}

// One child per process makes the documents as they stand, one at a time, so signers'
// downloads take at most one core whatever their number; the callers bound the queue.
const currentPools = new PoolsByLimits<CurrentPdfRequest, CurrentPdfAnswer>(
  {
    name: 'current-PDF maker',
    script: { source: new URL('./finalizer-child.ts', import.meta.url), bundle: 'pdf-finalizer.mjs' },
    recycleAfter: (answer) => !answer.ok || answer.current.bytes > RECYCLE_AFTER_BYTES,
  },
  { size: 1, memoryLimitBytes: DEFAULT_MEMORY_LIMIT_BYTES },
)

/** The hash and size of the document as it stands, written to `request.outPath`; FinalizeError otherwise. */
export async function makeCurrentPdf(
  request: CurrentPdfRequest,
  options: FinalizeOptions & { timeoutMs: number },
): Promise<MadeFile> {
  const outcome = await currentPools.get(options).run(request, options.timeoutMs)
  if (outcome.ok) return outcome.current
  switch (outcome.reason) {
    case 'timeout':
      throw new FinalizeError(`making the document took longer than ${options.timeoutMs / 1000} s`)
    case 'crashed':
      throw new FinalizeError('making the document exhausted the memory allowed or crashed')
    case 'failed':
      throw new FinalizeError(outcome.cause, outcome.detail)
  }
}

/** Kills the finalizers and the current-PDF makers, for a graceful shutdown; later work starts new ones. */
export function closePdfFinalizer(): void {
  pools.close()
  currentPools.close()
}
