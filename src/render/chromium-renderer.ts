// HTML → PDF for from_html and from_docx (docs/api.md#rendering), with the boxes of the field
// markers the caller put in the HTML. Decisions:
// - One warm Chromium per process (CHROMIUM_PATH, driven by playwright-core; no browser download),
//   launched by warm() at `serve` start or by the first render, relaunched by the next render after
//   it died. A fresh context per render (nothing of one document reaches the next), made ahead of
//   time: a new context and page cost ~150 ms (a renderer process starts), a render of a 2-page
//   document ~45 ms. One spare per concurrent render, each made after a render ends, never beside
//   one (on 2 cores that tripled the render's time).
// - Chromium is treated as hostile, with no network (docs/security.md#chromium): JavaScript off
//   twice (each page's context, print-page.ts, and the browser's flags), no request leaving the
//   page, a closed proxy port and a resolver that resolves nothing, setContent (never a file://
//   page); beneath that, Chromium's own sandbox where it can run (CHROMIUM_SANDBOX,
//   chromium-process.ts).
// - Bounded and shared fairly: RenderSlots (2 at once and 4 waiting per account, 1 more slot kept
//   for the other accounts, 8 waiting in all by default), a wall-clock timeout per render that
//   closes its context and, when Chromium does not answer within a grace period, kills the
//   browser's process group; a page cap (422, the caller's input).
// - One document in one page: print-page.ts (its page size, margins and network rules).
import type { BrowserContext, Page } from 'playwright-core'
import { LIMITS } from '../limits.ts'
import {
  killGroup,
  LaunchError,
  launchChromium,
  type RenderLogger,
  type Running,
  type SandboxMode,
  within,
} from './chromium-process.ts'
import type { FieldMark, PageFormat } from './field-marks.ts'
import { isolatedPage, type PrintStage, printPage, type RenderedPdf } from './print-page.ts'
import { RenderError } from './render-error.ts'
import { RenderSlots } from './render-slots.ts'

export type { FieldMark, PageFormat, RenderedPdf, RenderLogger }

export interface RendererOptions {
  executablePath: string
  /** Chromium's own sandbox (CHROMIUM_SANDBOX): `auto` by default. */
  sandbox?: SandboxMode
  logger: RenderLogger
  /**
   * Renders of one account at once, renders waiting, wall-clock limit of one render, pages of one
   * document; slots kept for other accounts, and renders of one account waiting.
   */
  concurrency?: number
  queueLimit?: number
  reserve?: number
  queuePerAccount?: number
  timeoutMs?: number
  maxPages?: number
  /** Contexts kept made ahead of renders (default: one per slot). */
  spareContexts?: number
  /** Called when a render takes a slot, with the number of renders holding one (tests, metrics). */
  onRenderStart?(inFlight: number): void
  /** Called when a browser process is gone: crashed, killed or closed. */
  onBrowserExit?(): void
}

interface Lease {
  owner: Running
  context: BrowserContext
  page: Page
}

interface RenderRequest {
  html: string
  format: PageFormat
  prefix: string
  timeoutMs: number
}

/** A context made ahead of time; `ready` once it is. */
interface Spare {
  lease: Promise<Lease>
  ready: boolean
}

/** What one render holds, for the clean-up after it (or after its timeout). */
interface Job {
  lease?: Promise<Lease>
  spare: boolean
  stage: 'context' | PrintStage
}

/** Where a render was when its time ran out, for the error message. */
const STAGES = {
  context: 'waiting for a browser context',
  content: 'while loading and laying out the document',
  print: 'while printing the pages',
  post: 'while reading the printed PDF',
} as const

// How long a context close (or the browser's close) may take before the browser is killed.
const CLOSE_GRACE_MS = 2_000

export class ChromiumRenderer {
  private running: Promise<Running> | undefined
  /** The browser `running` resolved to, while it is connected. */
  private current: Running | undefined
  private spares: Spare[] = []
  private readonly spareCount: number
  private readonly slots: RenderSlots
  private readonly timeoutMs: number
  private readonly maxPages: number
  private closed = false

  private readonly options: RendererOptions
  constructor(options: RendererOptions) {
    this.options = options
    this.timeoutMs = options.timeoutMs ?? LIMITS.htmlRenderMs
    this.maxPages = options.maxPages ?? LIMITS.htmlPages
    // One spare per slot, the reserved one included: another account's render, when a flood holds
    // the other slots, finds its context made (issue #20: making one then took ~0.6 s of its 2 s).
    const slots = (options.concurrency ?? LIMITS.htmlRenders) + (options.reserve ?? LIMITS.htmlRenderReserve)
    this.spareCount = options.spareContexts ?? slots
    const queue = options.queueLimit ?? LIMITS.htmlRenderQueue
    this.slots = new RenderSlots({
      perOwner: options.concurrency ?? LIMITS.htmlRenders,
      reserve: options.reserve ?? LIMITS.htmlRenderReserve,
      queue,
      queuePerOwner: Math.min(queue, options.queuePerAccount ?? LIMITS.htmlRenderQueuePerAccount),
      waitMs: this.timeoutMs,
    })
  }

  /** Launches the browser and makes the spare contexts now; rejects when Chromium cannot start. */
  async warm(): Promise<void> {
    await this.launched()
    this.refill()
    await Promise.all(this.spares.map((spare) => spare.lease))
  }

  /**
   * Prints `html` on `format` pages. `markPrefix` is the markers' URI up to their index
   * (`https://fields.paraph.invalid/{nonce}/`): those links become marks and leave the PDF.
   * Rejects with RenderError: `refused_html` past the page cap, `busy` or `render_failed` otherwise.
   * `options.timeoutMs` shortens the renderer's deadline for this render (a caller's own budget);
   * `options.account` is whose render it is, for sharing the slots fairly.
   */
  render(
    html: string,
    format: PageFormat,
    markPrefix: string,
    options: { timeoutMs?: number; account?: string } = {},
  ): Promise<RenderedPdf> {
    const timeoutMs = Math.min(options.timeoutMs ?? this.timeoutMs, this.timeoutMs)
    // Taken synchronously: renders started in one tick queue in the order they were called.
    return this.slots
      .acquire(options.account)
      .then((release) => this.run({ html, format, prefix: markPrefix, timeoutMs }, release))
  }

  /** The browser's process id, or undefined when none is running (tests, bench RSS). */
  async browserPid(): Promise<number | undefined> {
    const running = await this.running?.catch(() => undefined)
    return running?.browser.isConnected() ? running.pid : undefined
  }

  /** Closes the browser (killing it if it does not close in time); waiting renders are refused. */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.slots.close()
    const running = await this.running?.catch(() => undefined)
    this.running = undefined
    this.current = undefined
    this.spares = []
    if (!running) return
    await within(running.browser.close(), CLOSE_GRACE_MS)
    // Renderers and helpers are in the browser's process group: none outlives close(), even when
    // the browser did not close in time.
    killGroup(running)
  }

  private async run(request: RenderRequest, release: () => void): Promise<RenderedPdf> {
    this.options.onRenderStart?.(this.slots.inFlight)
    const { timeoutMs } = request
    const job: Job = { spare: false, stage: 'context' }
    const work = this.print(job, request)
    work.catch(() => {})
    let timer: NodeJS.Timeout | undefined
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs)
    })
    try {
      const result = await Promise.race([work, timedOut])
      if (result === 'timeout') {
        const message = `Rendering the HTML took longer than ${timeoutMs / 1000} s (stopped ${STAGES[job.stage]}).`
        throw new RenderError('render_failed', message)
      }
      return result
    } catch (error) {
      throw this.failure(error)
    } finally {
      clearTimeout(timer)
      void this.cleanUp(job).finally(() => {
        release()
        this.refill()
      })
    }
  }

  private async print(job: Job, { html, format, prefix }: RenderRequest): Promise<RenderedPdf> {
    const t0 = performance.now()
    job.lease = this.takeLease(job)
    const { page } = await job.lease
    const acquireMs = performance.now() - t0
    const { printed, timings } = await printPage(page, { html, format, prefix }, this.maxPages, (stage) => {
      job.stage = stage
    })
    const ms = (n: number) => Math.round(n * 10) / 10
    this.options.logger.debug(
      {
        render: {
          format,
          html_chars: html.length,
          pages: printed.pages,
          marks: printed.marks.length,
          bytes: printed.pdf.length,
          spare_context: job.spare,
          acquire_ms: ms(acquireMs),
          set_content_ms: ms(timings.setContent),
          pdf_ms: ms(timings.pdf),
          post_ms: ms(timings.post),
          total_ms: ms(performance.now() - t0),
        },
      },
      'html rendered',
    )
    return printed
  }

  /**
   * A spare context (a ready one first, else the oldest still being made) if it is still good,
   * else a new one. Its replacement is made after the render (run): making a context spawns a
   * renderer process, which measured on 2 cores tripled the time of a render running beside it.
   */
  private async takeLease(job: Job): Promise<Lease> {
    if (this.spares.length === 0) this.refill()
    const readyIndex = this.spares.findIndex((spare) => spare.ready)
    const [spare] = this.spares.splice(Math.max(readyIndex, 0), 1)
    const lease = await spare?.lease.catch(() => undefined)
    if (lease?.owner.browser.isConnected() && !lease.page.isClosed()) {
      job.spare = true
      return lease
    }
    lease?.context.close().catch(() => {})
    return this.newLease()
  }

  /** Starts making spare contexts until there are `spareContexts` of them, ready or not. */
  private refill(): void {
    while (!this.closed && this.spares.length < this.spareCount) {
      const spare: Spare = { lease: this.newLease(), ready: false }
      spare.lease.then(
        () => {
          spare.ready = true
        },
        () => {
          this.spares = this.spares.filter((other) => other !== spare)
        },
      )
      this.spares.push(spare)
    }
  }

  private async newLease(): Promise<Lease> {
    const owner = await this.launched()
    return { owner, ...(await isolatedPage(owner.browser)) }
  }

  /** Closes the render's context; kills the browser if that does not happen in time. */
  private async cleanUp(job: Job): Promise<void> {
    const closing = (async () => {
      const lease = await job.lease?.catch(() => undefined)
      await lease?.context.close().catch(() => {})
      return lease
    })()
    if (await within(closing, CLOSE_GRACE_MS)) return
    const running = this.current
    this.options.logger.warn(
      { pid: running?.pid },
      'a render context did not close in time: killing Chromium',
    )
    if (running) killGroup(running)
  }

  private failure(error: unknown): RenderError {
    if (error instanceof RenderError) return error
    if (error instanceof LaunchError) {
      return new RenderError('render_failed', 'The HTML renderer is unavailable: Chromium could not start.')
    }
    this.options.logger.warn({ err: error }, 'Chromium failed while rendering HTML')
    return new RenderError(
      'render_failed',
      'Chromium stopped while rendering the HTML (it crashed, ran out of memory or was restarted).',
    )
  }

  /** The running browser, launched now if none is (first use, or after it died). */
  private launched(): Promise<Running> {
    if (this.closed)
      return Promise.reject(new RenderError('render_failed', 'The HTML renderer is shut down.'))
    if (this.running) return this.running
    const { executablePath, logger, sandbox } = this.options
    const running = launchChromium(executablePath, logger, sandbox).then((launched) => {
      this.current = launched
      launched.browser.on('disconnected', () => {
        if (this.running === running) {
          this.running = undefined
          this.current = undefined
          this.spares = []
        }
        this.exited(launched)
      })
      return launched
    })
    this.running = running
    running.catch(() => {
      if (this.running === running) this.running = undefined
    })
    return running
  }

  private exited(running: Running): void {
    if (!this.closed)
      this.options.logger.warn({ pid: running.pid }, 'Chromium exited; the next render relaunches it')
    this.options.onBrowserExit?.()
  }
}
