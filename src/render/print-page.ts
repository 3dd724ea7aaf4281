// One HTML document printed to PDF in a page of its own (docs/api.md#rendering); chromium-renderer.ts
// runs the browser, keeps pages made ahead and bounds each render's time. Decisions:
// - The page's context is made for hostile content (docs/security.md#chromium): JavaScript off, no
//   service workers or downloads, every request but data: and about: aborted, and a navigation of
//   the page itself answered 204 so the document stays.
// - Pages are A4 or Letter, portrait: the size given to Chromium wins over CSS `@page { size }`.
//   Default margins are 20 mm on every side, given to Chromium as print margins, which a document's
//   own `@page { margin }` overrides (tested): documents written for print keep their layout, bare
//   HTML gets the margins of a letter. The HTML itself is never edited.
// - One page past the cap is printed, enough to refuse (422, the caller's input) without printing a
//   5,000-page document; the field markers' links become marks and leave the PDF (field-marks.ts).
import type { Browser, BrowserContext, Page } from 'playwright-core'
import {
  type FieldMark,
  loadPrinted,
  PAGE_SIZES,
  type PageFormat,
  setPageBoxes,
  takeFieldMarks,
} from './field-marks.ts'
import { RenderError } from './render-error.ts'

export interface RenderedPdf {
  pdf: Uint8Array
  pages: number
  /** One per field marker found, sorted by index. */
  marks: FieldMark[]
}

/** Where a print is, for the message of a render whose time ran out. */
export type PrintStage = 'content' | 'print' | 'post'

/** How long each stage of a print took, in milliseconds (the renderer's debug log). */
export interface PrintTimings {
  setContent: number
  pdf: number
  post: number
}

const DEFAULT_MARGIN = '20mm'

/** A fresh context and its page, where nothing of another document is and nothing leaves. */
export async function isolatedPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    javaScriptEnabled: false,
    serviceWorkers: 'block',
    acceptDownloads: false,
  })
  try {
    await context.route('**/*', (route) => {
      const request = route.request()
      // A navigation of the page itself (meta refresh, a form) gets "204 No Content", which leaves
      // the page as it is. An aborted one, measured under load, made page.pdf() fail ("Printing
      // failed") when it started during printing.
      if (request.isNavigationRequest() && request.frame().parentFrame() === null) {
        return route.fulfill({ status: 204 })
      }
      const url = request.url()
      return url.startsWith('data:') || url.startsWith('about:') ? route.continue() : route.abort()
    })
    return { context, page: await context.newPage() }
  } catch (error) {
    await context.close().catch(() => {})
    throw error
  }
}

/**
 * Prints `html` on `format` pages; `prefix` is the field markers' URI up to their index. Rejects
 * with RenderError `refused_html` past `maxPages`. `onStage` hears each stage as it begins.
 */
export async function printPage(
  page: Page,
  { html, format, prefix }: { html: string; format: PageFormat; prefix: string },
  maxPages: number,
  onStage: (stage: PrintStage) => void,
): Promise<{ printed: RenderedPdf; timings: PrintTimings }> {
  onStage('content')
  const t1 = performance.now()
  // No Playwright timeout: the render's own wall clock (chromium-renderer.ts) governs.
  await page.setContent(html, { waitUntil: 'load', timeout: 0 })
  onStage('print')
  const t2 = performance.now()
  const size = PAGE_SIZES[format]
  const bytes = await page.pdf({
    // Playwright refuses `pt`; inches are exact (72 pt each).
    width: `${size.width / 72}in`,
    height: `${size.height / 72}in`,
    printBackground: true,
    preferCSSPageSize: false,
    margin: { top: DEFAULT_MARGIN, right: DEFAULT_MARGIN, bottom: DEFAULT_MARGIN, left: DEFAULT_MARGIN },
    pageRanges: `1-${maxPages + 1}`,
  })
  onStage('post')
  const t3 = performance.now()
  const doc = await loadPrinted(bytes)
  const pages = doc.getPageCount()
  if (pages > maxPages) {
    throw new RenderError(
      'refused_html',
      `html: the document renders to more than ${maxPages} pages; at most ${maxPages} are accepted.`,
    )
  }
  setPageBoxes(doc, size)
  const marks = takeFieldMarks(doc, prefix)
  const pdf = await doc.save({ useObjectStreams: false })
  return {
    printed: { pdf, pages, marks },
    timings: { setContent: t2 - t1, pdf: t3 - t2, post: performance.now() - t3 },
  }
}
