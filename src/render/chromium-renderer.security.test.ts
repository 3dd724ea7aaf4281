// Hostile HTML against the renderer (docs/security.md#chromium): no request leaves, no local file
// shows, no script runs, and huge or deep documents end within the render timeout.
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { dataUrl, ihdr, pngOf } from '../../test/fixtures/png.ts'
import { pdfText } from '../../test/fixtures/poppler.ts'
import { LIMITS } from '../limits.ts'
import { RenderError } from './render-error.ts'
import { markPrefix, testRenderer } from './renderer-test-kit.ts'

const TIMEOUT_MS = 10_000
const renderer = testRenderer({ timeoutMs: TIMEOUT_MS })
const productRenderer = testRenderer()

describe('ChromiumRenderer: no request leaves the browser', () => {
  let server: Server
  let origin = ''
  const seen: string[] = []
  let connections = 0

  before(async () => {
    server = createServer((request, response) => {
      seen.push(request.url ?? '')
      response.end('p { color: red } body::after { content: "FETCHED" }')
    })
    server.on('connection', () => connections++)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  after(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('fetches no image, stylesheet, @import, font, frame, object, poster or prefetch', async () => {
    const host = origin.replace('127.0.0.1', 'localhost')
    const html = `<!DOCTYPE html><html><head>
      <meta http-equiv="refresh" content="0;url=${origin}/refresh">
      <link rel="stylesheet" href="${origin}/link.css">
      <link rel="preconnect" href="${origin}"><link rel="dns-prefetch" href="${host}">
      <link rel="prefetch" href="${origin}/prefetch"><link rel="preload" as="image" href="${origin}/preload.png">
      <link rel="icon" href="${origin}/favicon.ico">
      <style>
        @import url(${origin}/import.css);
        @font-face { font-family: Remote; src: url(${origin}/font.woff2) }
        body { font-family: Remote; background: url(${origin}/background.png) }
      </style></head><body>
      <p>VISIBLE</p>
      <img src="${origin}/img.png"><img src="${host}/img-by-name.png"><img srcset="${origin}/srcset.png 2x">
      <picture><source srcset="${origin}/source.png"><img src="data:,"></picture>
      <iframe src="${origin}/frame.html"></iframe><object data="${origin}/object"></object>
      <embed src="${origin}/embed"><video poster="${origin}/poster.png" src="${origin}/video.mp4"></video>
      <audio src="${origin}/audio.mp3"></audio><input type="image" src="${origin}/input.png">
      <svg><image href="${origin}/svg.png" width="10" height="10"/></svg>
      <form action="${origin}/form"><button>send</button></form>
      </body></html>`
    const prefix = markPrefix()
    // Under the product's deadline: what is asserted is that nothing is fetched, and this page of
    // twenty refused loads has taken past 10 s on a machine running a full CI beside other work.
    const { pdf } = await productRenderer.render(html, 'A4', prefix)
    const text = await pdfText(pdf)
    assert.match(text, /VISIBLE/)
    assert.doesNotMatch(text, /FETCHED/)
    assert.deepEqual(seen, [])
    assert.equal(connections, 0)
  })
})

describe('ChromiumRenderer: a document that navigates itself', () => {
  it('prints the document as written when it asks to be replaced (meta refresh, a form)', async () => {
    const html = `<meta http-equiv="refresh" content="0;url=https://example.com/elsewhere">
      <p>VISIBLE</p><form action="https://example.com/form"><input type="submit" autofocus></form>`
    // A navigation starting while Chromium prints used to fail the print: a few tries, not one.
    for (let i = 0; i < 5; i++) {
      const text = await pdfText((await renderer.render(html, 'A4', markPrefix())).pdf)
      assert.match(text, /VISIBLE/)
    }
  })
})

describe('ChromiumRenderer: no local file and no script', () => {
  it('shows nothing of file:///etc/passwd, whatever element points at it', async () => {
    const file = 'file:///etc/passwd'
    const html = `<p>VISIBLE</p><iframe src="${file}"></iframe><object data="${file}"></object>
      <embed src="${file}"><img src="${file}"><link rel="stylesheet" href="${file}">
      <iframe srcdoc="<iframe src='${file}'></iframe>"></iframe>`
    const text = await pdfText((await renderer.render(html, 'A4', markPrefix())).pdf)
    assert.match(text, /VISIBLE/)
    assert.doesNotMatch(text, /root:/)
  })

  it('runs no script: inline, event handler, javascript: URL, nor in a frame of another origin', async () => {
    const write = "document.write('JS RAN')"
    const html = `<body onload="document.body.innerHTML='JS RAN'"><p>VISIBLE</p>
      <script>${write}</script><img src="data:," onerror="${write}">
      <iframe src="javascript:'JS RAN'"></iframe>
      <iframe srcdoc="<script>${write}</script>"></iframe>
      <iframe src="data:text/html,<script>${write}</script>"></iframe>
      <svg onload="${write}"></svg></body>`
    const text = await pdfText((await renderer.render(html, 'A4', markPrefix())).pdf)
    assert.match(text, /VISIBLE/)
    assert.doesNotMatch(text, /JS RAN/)
  })
})

describe('ChromiumRenderer: large and deep documents end within the timeout', () => {
  /**
   * What became of `html` — a page count, or the refusal's reason — asserted to end within the
   * timeout and never with another error.
   */
  async function outcomeOf(html: string): Promise<number | string> {
    const started = performance.now()
    let outcome: number | string
    try {
      outcome = (await renderer.render(html, 'A4', markPrefix())).pages
    } catch (error) {
      assert.ok(error instanceof RenderError, String(error))
      outcome = error.reason
    }
    const elapsed = performance.now() - started
    assert.ok(elapsed < TIMEOUT_MS + 1000, `${elapsed} ms`)
    return outcome
  }

  it('renders a 3 MB inline PNG on one page', async () => {
    const width = 1000
    const rows = Array.from({ length: 1000 }, () => Buffer.concat([Buffer.of(0), randomBytes(width * 3)]))
    const image = pngOf(ihdr(width, 1000, 8, 2), Buffer.concat(rows))
    assert.ok(image.length > 3_000_000)
    assert.equal(await outcomeOf(`<p>photo</p><img src="${dataUrl(image)}" style="width:400pt">`), 1)
  })

  it('renders or stops 50 000 nested elements within the timeout', async () => {
    // Here Chromium is still laying it out at 10 s and is stopped; a faster machine may finish.
    const outcome = await outcomeOf(
      `${'<div style="padding-left:1px">'.repeat(50_000)}deep${'</div>'.repeat(50_000)}`,
    )
    assert.ok(outcome === 'render_failed' || outcome === 1, String(outcome))
  })

  it('refuses a 1.5 MB single line of text: past the page cap, found without printing it all', async () => {
    // Under the product's own deadline (LIMITS.htmlRenderMs), not the 10 s of the cases above: the
    // line is laid out in full before the cap can be seen. 1.5 MB (300 000 words, past the
    // 200-page cap) rather than the 5 MB of the bench row (docs/benchmarks.md, renderer alone; the
    // route's 4 MiB body limit refuses 5 MB first): 5 MB took 4–6 s on a quiet 2-core machine and
    // past 20 s three times under a full CI run beside helpers and benches. What is asserted is the
    // cap's refusal within the deadline.
    const started = performance.now()
    const refusal = await productRenderer
      .render(`<p>${'word '.repeat(300_000)}</p>`, 'A4', markPrefix())
      .then(
        () => undefined,
        (error: unknown) => error,
      )
    assert.ok(refusal instanceof RenderError, String(refusal))
    assert.equal(refusal.reason, 'refused_html', refusal.message)
    assert.match(refusal.message, new RegExp(`more than ${LIMITS.htmlPages} pages`))
    assert.ok(performance.now() - started < LIMITS.htmlRenderMs + 1000)
  })
})
