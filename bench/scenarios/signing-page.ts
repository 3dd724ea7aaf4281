// The signing page as a signer meets it. (1) Its weight: the HTML, script and style
// sheet as a browser downloads them (brotli), fonts and page images apart; limit 150 KB. (2) In
// headless Chromium (Debian's, through playwright-core), a fresh browser context each time (empty
// cache, as a signer's first visit), from navigation to the first document page visible (its image
// loaded and decoded, read in the page on each animation frame) for a 3-page A4 text document, each
// run on a new submission so the page images are rendered cold on the server. Beside it the floor:
// the same Chromium loading a static HTML page showing the same three page images, already
// rendered, from a bare node:http server. SQLite only: the page's path reads the database 2–4 times.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { PageSizes, PDFDocument, StandardFonts } from 'pdf-lib'
import { type Browser, chromium } from 'playwright-core'
import { renderPageImage } from '../../src/pdf/read/page-image.ts'
import { type LimitRow, type LimitScenario, oneAtATimeFigures } from '../scenario.ts'
import { type RunningServer, startParaph } from '../servers.ts'
import { createToSign } from '../signing.ts'
import { percentile } from '../stats.ts'
import { inline } from '../submissions.ts'

const NAME = 'signing page, first document page visible'
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const WARM_UPS = 3
const RUNS = 15
const VIEWPORT = { width: 1280, height: 900 }
interface PageGlobals {
  document: { querySelector(selector: string): { complete: boolean; naturalWidth: number } | null }
  performance: { now(): number }
}

/**
 * Run in the page on each frame: the page's clock (ms since navigation) once the first image is
 * shown. A function, not a string: the page's CSP forbids eval, which a string predicate needs.
 */
function firstImageShown(): number | false {
  const page = globalThis as unknown as PageGlobals
  const img = page.document.querySelector('img')
  return img?.complete && img.naturalWidth > 0 ? page.performance.now() : false
}

/** Three A4 pages of running text, as a contract looks. */
async function contract(): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  const line = 'The parties agree that the services described in the annex are provided as set out below.'
  for (let p = 0; p < 3; p++) {
    const page = doc.addPage(PageSizes.A4)
    page.drawText(`Article ${p + 1}`, { x: 60, y: 780, size: 16, font })
    for (let i = 0; i < 55; i++)
      page.drawText(`${i + 1}. ${line}`, { x: 60, y: 750 - i * 12.5, size: 9, font })
  }
  return doc.save()
}

async function timeFirstPage(browser: Browser, url: string): Promise<number> {
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 })
  try {
    const page = await context.newPage()
    await page.goto(url, { waitUntil: 'commit' })
    const handle = await page.waitForFunction(firstImageShown, undefined, { polling: 'raf', timeout: 30_000 })
    return (await handle.jsonValue()) as number
  } finally {
    await context.close()
  }
}

/** The floor's static page: the three page images, pre-rendered at the width Paraph serves. */
async function startStaticPage(pdf: Uint8Array): Promise<{ url: string; close(): Promise<void> }> {
  // Made by Paraph's own renderer at the width a 1280 px window asks for, so both show the same bytes.
  const images = await Promise.all([1, 2, 3].map((page) => renderPageImage(pdf, page, 1200)))
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>floor</title></head><body style="margin:0;background:#eef1f5">${images
    .map((_, i) => `<img src="/p${i + 1}.jpg" style="display:block;width:820px;margin:16px auto" alt="">`)
    .join('')}</body></html>`
  const server = createServer((request, response) => {
    const index = /^\/p([123])\.jpg$/.exec(request.url ?? '')?.[1]
    if (index) {
      response.writeHead(200, { 'content-type': 'image/jpeg' }).end(images[Number(index) - 1])
    } else {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html)
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

/** HTML, script and style sheet of the page as a browser that accepts brotli downloads them. */
async function pageWeight(server: RunningServer, slug: string): Promise<{ total: number; parts: string[] }> {
  const base = server.process.baseUrl
  const html = await (await fetch(`${base}/s/${slug}`, { headers: { accept: 'text/html' } })).text()
  const assets = [...html.matchAll(/(?:src|href)="(\/signing-page\/assets\/[^"]+)"/g)].map((m) => m[1]!)
  let total = Buffer.byteLength(html)
  const parts = [`HTML ${(total / 1024).toFixed(1)} KB`]
  for (const path of assets) {
    // fetch() would decompress: ask with a raw request and count the bytes on the wire.
    const response = await fetch(`${base}${path}`, { headers: { 'accept-encoding': 'br' } })
    const length = Number(response.headers.get('content-length') ?? (await response.arrayBuffer()).byteLength)
    total += length
    parts.push(
      `${path.split('/').pop()} ${(length / 1024).toFixed(1)} KB (${response.headers.get('content-encoding') ?? 'identity'})`,
    )
  }
  return { total, parts }
}

const fixed = (n: number) => n.toFixed(1)

export const signingPageScenario: LimitScenario = {
  kind: 'limit',
  name: NAME,
  description:
    "the page's own HTML + JS + CSS (brotli); headless Chromium, fresh context each run: navigation → first page image shown, 3-page A4 text document",
  goal: 'page weight < 150 KB compressed (fonts and page images apart); first page visible p50 < 1000 ms',
  run: async () => {
    const pdf = await contract()
    const server = await startParaph(null)
    const floor = await startStaticPage(pdf)
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
    try {
      const source = inline(pdf)
      const newPage = async () =>
        `${server.process.baseUrl}/s/${(await createToSign(server, source)).slugs[0]}`
      for (let i = 0; i < WARM_UPS; i++) {
        await timeFirstPage(browser, await newPage())
        await timeFirstPage(browser, floor.url)
      }
      const paraph: number[] = []
      const bare: number[] = []
      for (let i = 0; i < RUNS; i++) {
        paraph.push(await timeFirstPage(browser, await newPage()))
        bare.push(await timeFirstPage(browser, floor.url))
      }
      const weight = await pageWeight(server, (await createToSign(server, source)).slugs[0]!)
      const figures = oneAtATimeFigures
      const rows: LimitRow[] = [
        {
          scenario: NAME,
          case: 'sqlite, page weight',
          figures: { ...figures([0]), p50Ms: null, p99Ms: null, maxMs: null, latencyLoad: 'n/a' },
          reference: 'fonts and page images apart',
          notes: [`page weight: ${weight.parts.join(', ')}`],
          judged: { label: 'weight', value: weight.total / 1024, max: 150, unit: 'KB' },
        },
        {
          scenario: NAME,
          case: 'sqlite, 3 pages A4, first page',
          figures: figures(paraph),
          reference: `floor ${fixed(percentile(bare, 50))} ms`,
          notes: [
            `navigation → first page visible, Paraph: p50 ${fixed(percentile(paraph, 50))} ms, p90 ${fixed(percentile(paraph, 90))} ms, max ${fixed(Math.max(...paraph))} ms over ${RUNS} (page images rendered cold each time)`,
            `floor (static HTML, the same images pre-rendered, bare node:http): p50 ${fixed(percentile(bare, 50))} ms, p90 ${fixed(percentile(bare, 90))} ms`,
          ],
          judged: { label: 'p50', value: percentile(paraph, 50), max: 1000, unit: 'ms' },
        },
      ]
      return rows
    } finally {
      await browser.close()
      await floor.close()
      await server.stop()
    }
  },
}
