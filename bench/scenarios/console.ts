// Issue #23's targets for the console, in headless Chromium (Debian's, through playwright-core),
// a fresh browser context for each run (empty cache, as a person's first visit of the day):
// (1) its first load — the HTML shell, entry script, its static chunks and the style sheet as a
//     browser that accepts brotli downloads them — at most 300 KB;
// (2) the template list interactive — navigation → the first of 25 templates' rows on screen,
//     which takes the shell, the bundle, GET /console/api/session and GET /v1/templates — p50 < 1 s,
//     beside its floor: a static page of the same weight with the same table already in its HTML,
//     from a bare node:http server;
// (3) the editor opening a 100-page PDF — the file chosen → page 1's image shown, which takes the
//     upload (the draft: the PDF inspected and stored) and page 1 rendered — p50 < 2 s, beside its
//     floor: a static page that posts the same file to a bare node:http server answering page 1
//     rendered by Paraph's own renderer at the same width, and shows it.
// SQLite only: what is measured is the browser's path, where the database is a few reads.
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { PageSizes, PDFDocument, StandardFonts } from 'pdf-lib'
import { type Browser, type BrowserContext, chromium } from 'playwright-core'
import { renderPageImage } from '../../src/pdf/read/page-image.ts'
import { type LimitRow, type LimitScenario, oneAtATimeFigures } from '../scenario.ts'
import { type RunningServer, startParaph } from '../servers.ts'
import { percentile } from '../stats.ts'
import { createTemplate, inline } from '../submissions.ts'

const NAME = 'console'
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url))
const EMAIL = 'bench@example.eu'
const TEMPLATES = 25
const WARM_UPS = 2
const LIST_RUNS = 15
const EDITOR_RUNS = 7
/** The editor's page image at a 1280 px window (its srcset's 800w for a 760 px box). */
const EDITOR_IMAGE_WIDTH = 800
const VIEWPORT = { width: 1280, height: 900 }
const run = promisify(execFile)

interface PageGlobals {
  document: { querySelector(selector: string): { complete?: boolean; naturalWidth?: number } | null }
  performance: { now(): number }
}

/** Run in the page on each frame: the page's clock once a row of the templates' table is shown. */
function firstRowShown(): number | false {
  const page = globalThis as unknown as PageGlobals
  return page.document.querySelector('table tbody tr') ? page.performance.now() : false
}

/** Run in the page on each frame: the page's clock once page 1's image is decoded and shown. */
function firstPageImageShown(selector: string): number | false {
  const page = globalThis as unknown as PageGlobals
  const img = page.document.querySelector(selector)
  return img?.complete && (img.naturalWidth ?? 0) > 0 ? page.performance.now() : false
}

/** A contract of `pages` A4 pages of running text. */
async function contract(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  const line = 'The parties agree that the services described in the annex are provided as set out below.'
  for (let p = 0; p < pages; p++) {
    const page = doc.addPage(PageSizes.A4)
    page.drawText(`Article ${p + 1}`, { x: 60, y: 780, size: 16, font })
    for (let i = 0; i < 55; i++)
      page.drawText(`${i + 1}. ${line}`, { x: 60, y: 750 - i * 12.5, size: 9, font })
  }
  return doc.save()
}

/** A console member of the server's default account, signed in through a link as a person is. */
async function consoleCookie(server: RunningServer): Promise<string> {
  const account = /^ {2}account {3}(acct_\S+)$/m.exec(readFileSync(server.process.logFile, 'utf8'))?.[1]
  if (!account || !server.env) throw new Error('paraph serve printed no "  account   acct_…" line')
  const cli = (args: string[]) =>
    run(process.execPath, ['bin/paraph.mjs', ...args], { cwd: REPO_ROOT, env: server.env })
  await cli(['members', 'add', '--account', account, '--email', EMAIL])
  const [link] = JSON.parse((await cli(['console-link', '--email', EMAIL, '--json'])).stdout) as {
    url: string
  }[]
  const base = server.process.baseUrl
  const signedIn = await fetch(link!.url, {
    method: 'POST',
    headers: { origin: base, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
    redirect: 'manual',
  })
  const cookie = signedIn.headers.getSetCookie()[0]?.split(';')[0]
  if (signedIn.status !== 303 || !cookie) throw new Error(`sign-in answered ${signedIn.status}`)
  return cookie
}

/** The console's first load as a browser that accepts brotli downloads it (bytes on the wire). */
async function firstLoadWeight(base: string, cookie: string): Promise<{ total: number; parts: string[] }> {
  const html = await (await fetch(`${base}/console/templates`, { headers: { cookie } })).text()
  const modules = [...html.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((m) => m[1]!)
  let total = Buffer.byteLength(html)
  const parts = [`HTML ${(total / 1024).toFixed(1)} KB`]
  for (const path of new Set(modules)) {
    const response = await fetch(`${base}${path}`, { headers: { 'accept-encoding': 'br' } })
    const length = Number(response.headers.get('content-length') ?? (await response.arrayBuffer()).byteLength)
    total += length
    parts.push(`${path.split('/').pop()} ${(length / 1024).toFixed(1)} KB`)
  }
  return { total, parts }
}

async function listen(
  handler: Parameters<typeof createServer>[1],
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

/**
 * The list's floor: one HTML page carrying the same table, padded to the console's first-load
 * weight (an HTML comment of incompressible bytes, as compressed code is), served as it is.
 */
function staticList(rows: string[], weight: number) {
  const table = `<table><thead><tr><th>Name</th><th>Created</th></tr></thead><tbody>${rows
    .map((name) => `<tr><td>${name}</td><td>2026-11-26</td></tr>`)
    .join('')}</tbody></table>`
  const head = `<!doctype html><html><head><meta charset="utf-8"><title>floor</title></head><body><h1>Templates</h1>${table}<!--`
  const tail = '--></body></html>'
  const pad = Math.max(0, weight - head.length - tail.length)
  const filler = Buffer.alloc(pad)
  for (let i = 0; i < pad; i++) filler[i] = 0x41 + ((i * 7919) % 26)
  const html = Buffer.concat([Buffer.from(head), filler, Buffer.from(tail)])
  return listen((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html)
  })
}

/** The editor's floor: a file input posting the PDF; the server answers page 1 as a JPEG. */
function staticUpload() {
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>floor</title></head><body>
<input type="file" id="file"><img id="page" alt="" style="width:760px">
<script>
document.getElementById('file').addEventListener('change', async (event) => {
  const response = await fetch('/upload', { method: 'POST', body: event.target.files[0] })
  document.getElementById('page').src = URL.createObjectURL(await response.blob())
})
</script></body></html>`
  return listen(async (request, response) => {
    if (request.method !== 'POST') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html)
      return
    }
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const jpeg = await renderPageImage(new Uint8Array(Buffer.concat(chunks)), 1, EDITOR_IMAGE_WIDTH)
    response.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg)
  })
}

async function withContext<T>(
  browser: Browser,
  cookie: { base: string; value: string } | null,
  work: (context: BrowserContext) => Promise<T>,
): Promise<T> {
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1, locale: 'en-GB' })
  try {
    if (cookie) {
      const [name, value] = cookie.value.split('=') as [string, string]
      await context.addCookies([{ name, value, url: cookie.base, httpOnly: true, sameSite: 'Lax' }])
    }
    return await work(context)
  } finally {
    await context.close()
  }
}

/** Navigation → the first row of the list shown, in the page's own clock. */
const timeList = (browser: Browser, url: string, cookie: { base: string; value: string } | null) =>
  withContext(browser, cookie, async (context) => {
    const page = await context.newPage()
    await page.goto(url, { waitUntil: 'commit' })
    const shown = await page.waitForFunction(firstRowShown, undefined, { polling: 'raf', timeout: 30_000 })
    return (await shown.jsonValue()) as number
  })

/** The file chosen → page 1's image shown: `ready` waits for the page's upload control. */
const timeUpload = (
  browser: Browser,
  url: string,
  cookie: { base: string; value: string } | null,
  pdf: Uint8Array,
  input: string,
  image: string,
) =>
  withContext(browser, cookie, async (context) => {
    const page = await context.newPage()
    await page.goto(url)
    await page.locator(input).waitFor({ state: 'attached' })
    const chosen = (await page.evaluate(() => performance.now())) as number
    await page
      .locator(input)
      .setInputFiles({ name: 'hundred.pdf', mimeType: 'application/pdf', buffer: Buffer.from(pdf) })
    const shown = await page.waitForFunction(firstPageImageShown, image, { polling: 'raf', timeout: 30_000 })
    return ((await shown.jsonValue()) as number) - chosen
  })

const fixed = (n: number) => n.toFixed(1)
const summary = (ms: number[]) =>
  `p50 ${fixed(percentile(ms, 50))} ms, p90 ${fixed(percentile(ms, 90))} ms, max ${fixed(Math.max(...ms))} ms over ${ms.length}`

export const consoleScenario: LimitScenario = {
  kind: 'limit',
  name: NAME,
  description:
    'headless Chromium, fresh context each run: the first load (brotli); navigation → the template list shown (25 templates); the file chosen → page 1 of a 100-page PDF shown in the editor',
  goal: 'first load ≤ 300 KB; template list interactive p50 < 1000 ms; editor opens a 100-page PDF p50 < 2000 ms',
  run: async () => {
    const server = await startParaph(null)
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
    const closers: Array<() => Promise<void>> = []
    try {
      const base = server.process.baseUrl
      const ids: string[] = []
      const onePage = inline(await contract(1))
      for (let i = 0; i < TEMPLATES; i++) ids.push(await createTemplate(server, onePage))
      const cookie = { base, value: await consoleCookie(server) }
      const weight = await firstLoadWeight(base, cookie.value)
      const list = await staticList(ids, weight.total)
      closers.push(list.close)
      const upload = await staticUpload()
      closers.push(upload.close)
      const hundred = await contract(100)

      const listUrl = `${base}/console/templates`
      for (let i = 0; i < WARM_UPS; i++) {
        await timeList(browser, listUrl, cookie)
        await timeList(browser, list.url, null)
      }
      const paraphList: number[] = []
      const floorList: number[] = []
      for (let i = 0; i < LIST_RUNS; i++) {
        paraphList.push(await timeList(browser, listUrl, cookie))
        floorList.push(await timeList(browser, list.url, null))
      }

      const editorUrl = `${base}/console/templates/new`
      const editorImage = '.editor-page[data-page="1"] img'
      const editor = () => timeUpload(browser, editorUrl, cookie, hundred, '#editor-file', editorImage)
      const floorEditor = () => timeUpload(browser, upload.url, null, hundred, '#file', '#page')
      await editor()
      await floorEditor()
      const paraphEditor: number[] = []
      const bareEditor: number[] = []
      for (let i = 0; i < EDITOR_RUNS; i++) {
        paraphEditor.push(await editor())
        bareEditor.push(await floorEditor())
      }

      const rows: LimitRow[] = [
        {
          scenario: NAME,
          case: 'sqlite, first load',
          figures: { ...oneAtATimeFigures([0]), p50Ms: null, p99Ms: null, maxMs: null, latencyLoad: 'n/a' },
          reference: 'page images apart',
          notes: [`first load: ${weight.parts.join(', ')}`],
          judged: { label: 'weight', value: weight.total / 1024, max: 300, unit: 'KB' },
        },
        {
          scenario: NAME,
          case: `sqlite, template list (${TEMPLATES}) shown`,
          figures: oneAtATimeFigures(paraphList),
          reference: `floor ${fixed(percentile(floorList, 50))} ms`,
          notes: [
            `navigation → first template row shown, Paraph: ${summary(paraphList)}`,
            `floor (static HTML of the same weight, ${fixed(weight.total / 1024)} KB, the table in it, bare node:http): ${summary(floorList)}`,
          ],
          judged: { label: 'p50', value: percentile(paraphList, 50), max: 1000, unit: 'ms' },
        },
        {
          scenario: NAME,
          case: 'sqlite, editor, 100-page PDF, page 1',
          figures: oneAtATimeFigures(paraphEditor),
          reference: `floor ${fixed(percentile(bareEditor, 50))} ms`,
          notes: [
            `file chosen → page 1 shown in the editor (${(hundred.length / 1024).toFixed(0)} KB PDF uploaded as a draft, page 1 rendered at ${EDITOR_IMAGE_WIDTH} px): ${summary(paraphEditor)}`,
            `floor (the same file posted by a bare page to node:http, page 1 rendered by the same renderer, shown): ${summary(bareEditor)}`,
          ],
          judged: { label: 'p50', value: percentile(paraphEditor, 50), max: 2000, unit: 'ms' },
        },
      ]
      return rows
    } finally {
      for (const close of closers) await close()
      await browser.close()
      await server.stop()
    }
  },
}
