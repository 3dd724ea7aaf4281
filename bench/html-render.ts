// The sides of the from_html rows: Paraph's route (`paraph serve`, POST /v1/submissions/from_html
// of the contract with four {{tags}}), Paraph's renderer alone in this process, and the floor, raw
// Chromium doing what any HTML-to-PDF service must: a fresh context, setContent, page.pdf(), then
// a close not waited for. All print the same 2-page A4 contract (markers for the renderer and the
// floor, the tags they stand for for the route).
import { randomBytes, randomUUID } from 'node:crypto'
import { type Browser, chromium } from 'playwright-core'
import { ChromiumRenderer } from '../src/render/chromium-renderer.ts'
import { type RunningServer, startParaph } from './servers.ts'
import { jsonHeaders } from './submissions.ts'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** One side of a row: renders an HTML document to a PDF, one call per request. */
export interface Side {
  label: string
  render(html: string): Promise<void>
  stop(): Promise<void>
}

const PREFIX = `https://fields.paraph.invalid/${randomBytes(12).toString('hex')}/`

function field(index: number): string {
  return `<a href="${PREFIX}${index}" style="display:inline-block;width:160pt;height:48pt"></a>`
}

const CLAUSE =
  'The parties agree that the services described in the annex are provided as set out below, for the fees and the term stated there, and that either party may end them by written notice. '

/** Two A4 pages at 20 mm margins: a title, 6 clauses, and four signature and date markers. */
export const TWO_PAGES = `<!DOCTYPE html><html><head><meta charset="utf-8"><style>
  body { font: 11pt/1.45 serif } h1 { font-size: 18pt } h2 { font-size: 12pt; margin: 14pt 0 4pt }
</style></head><body><h1>Services agreement</h1>
${Array.from({ length: 6 }, (_, i) => `<h2>Article ${i + 1}</h2><p>${CLAUSE.repeat(3)}</p>`).join('\n')}
<p>Signed for the provider: ${field(0)} on ${field(1)}</p>
<p>Signed for the client: ${field(2)} on ${field(3)}</p>
</body></html>`

const TAGS = [
  '{{Provider signs;role=Provider}}',
  '{{Provider date;role=Provider;type=date}}',
  '{{Client signs;role=Client}}',
  '{{Client date;role=Client;type=date}}',
]

/** The contract as a client sends it: each marker is the tag it stands for. */
export function tagged(html: string): string {
  return TAGS.reduce((doc, tag, i) => doc.replace(field(i), tag), html)
}

/** POST `body` to a from_ route; the status and the answer's text. */
export async function postCreation(server: RunningServer, path: string, body: unknown) {
  const response = await fetch(`${server.process.baseUrl}${path}`, {
    method: 'POST',
    headers: { ...jsonHeaders(server), 'idempotency-key': randomUUID() },
    body: JSON.stringify(body),
  })
  return { status: response.status, text: await response.text() }
}

export const TAGGED_SUBMITTERS = [
  { role: 'Provider', email: 'provider@example.eu' },
  { role: 'Client', email: 'client@example.eu' },
]

/** POST /v1/submissions/from_html to `paraph serve` (SQLite, no worker), the whole route timed. */
export async function paraphRoute(): Promise<Side & { server: RunningServer }> {
  const server = await startParaph(null)
  const render = async (html: string) => {
    const body = {
      name: 'Services agreement',
      html: tagged(html),
      submitters: TAGGED_SUBMITTERS,
      send_email: false,
    }
    const { status, text } = await postCreation(server, '/v1/submissions/from_html', body)
    if (status !== 201) throw new Error(`from_html answered ${status}: ${text.slice(0, 300)}`)
    const fields = (JSON.parse(text) as { fields: Array<{ areas: Array<{ page: number }> }> }).fields
    if (fields.length !== 4) throw new Error(`from_html found ${fields.length} fields, not 4`)
  }
  await render(TWO_PAGES)
  return { label: 'POST from_html', render, stop: () => server.stop(), server }
}

/** Paraph's renderer in this process, warmed, at its default limits (2 renders at once). */
export async function rendererAlone(): Promise<Side> {
  const renderer = new ChromiumRenderer({ executablePath: CHROMIUM, logger: { debug() {}, warn() {} } })
  try {
    await renderer.warm()
    const first = await renderer.render(TWO_PAGES, 'A4', PREFIX)
    if (first.pages !== 2 || first.marks.length !== 4) {
      throw new Error(`the bench document renders to ${first.pages} pages and ${first.marks.length} marks`)
    }
  } catch (error) {
    await renderer.close()
    throw error
  }
  return {
    label: 'renderer alone',
    render: async (html) => {
      await renderer.render(html, 'A4', PREFIX)
    },
    stop: () => renderer.close(),
  }
}

/** Raw Chromium: the same HTML and page size, nothing pre-made, no request blocking. */
export async function rawChromium(): Promise<Side> {
  const args = process.getuid?.() === 0 ? ['--no-sandbox'] : []
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args })
  return {
    label: 'raw Chromium',
    render: async (html) => {
      const context = await browser.newContext()
      try {
        const page = await context.newPage()
        await page.setContent(html)
        await page.pdf({ width: `${595 / 72}in`, height: `${842 / 72}in`, printBackground: true })
      } finally {
        // Closed after answering, as Paraph's renderer does.
        void context.close()
      }
    },
    stop: () => browser.close(),
  }
}
