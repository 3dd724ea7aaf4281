// The renderer when things go wrong: timeouts, a browser killed or frozen, too many renders at
// once, too many pages, no Chromium at all, and close() leaving no process behind.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { RenderError } from './render-error.ts'
import { groupMembers, markPrefix, recordingLogger, testRenderer, waitFor } from './renderer-test-kit.ts'

const SHORT = '<p>short</p>'

/** A promise of the next browser exit, and the hook that resolves it. */
function exitSignal(): { next(): Promise<void>; hook(): void } {
  let resolve = () => {}
  let pending = new Promise<void>((r) => {
    resolve = r
  })
  return {
    next: () => pending,
    hook: () => {
      resolve()
      pending = new Promise<void>((r) => {
        resolve = r
      })
    },
  }
}

function isRenderError(reason: string, pattern: RegExp) {
  return (error: unknown) => {
    assert.ok(error instanceof RenderError, String(error))
    assert.equal(error.reason, reason)
    assert.match(error.message, pattern)
    return true
  }
}

describe('ChromiumRenderer: timeouts and browser failures', () => {
  it('500 html_render_failed when a render outlives its timeout; the next render works', async () => {
    const renderer = testRenderer()
    await renderer.warm()
    await assert.rejects(
      renderer.render(SHORT, 'A4', markPrefix(), { timeoutMs: 1 }),
      isRenderError('render_failed', /took longer than 0\.001 s/),
    )
    assert.equal((await renderer.render(SHORT, 'A4', markPrefix())).pages, 1)
  })

  it('kills a browser that stops answering, and relaunches it for the next render', async () => {
    const exits = exitSignal()
    const renderer = testRenderer({ onBrowserExit: exits.hook })
    await renderer.warm()
    const frozen = await renderer.browserPid()
    assert.ok(frozen)
    const exited = exits.next()
    process.kill(frozen, 'SIGSTOP')
    await assert.rejects(
      renderer.render(SHORT, 'A4', markPrefix(), { timeoutMs: 200 }),
      isRenderError('render_failed', /took longer than 0\.2 s/),
    )
    // Its context cannot close, so the renderer kills the browser's process group.
    await exited
    await waitFor(() => groupMembers(frozen).length === 0, 5000, 'the frozen browser processes to die')
    assert.equal((await renderer.render(SHORT, 'A4', markPrefix())).pages, 1)
    assert.notEqual(await renderer.browserPid(), frozen)
  })

  it('relaunches a browser killed from outside on the next render', async () => {
    const exits = exitSignal()
    const renderer = testRenderer({ onBrowserExit: exits.hook })
    assert.equal((await renderer.render(SHORT, 'A4', markPrefix())).pages, 1)
    const killed = await renderer.browserPid()
    assert.ok(killed)
    const exited = exits.next()
    process.kill(-killed, 'SIGKILL')
    await exited
    assert.equal((await renderer.render(SHORT, 'A4', markPrefix())).pages, 1)
    assert.notEqual(await renderer.browserPid(), killed)
  })

  it('500 html_render_failed naming no path when Chromium cannot start; warns with CHROMIUM_PATH', async () => {
    const logger = recordingLogger()
    const renderer = testRenderer({ executablePath: '/nonexistent/chromium', logger })
    await assert.rejects(renderer.warm())
    await assert.rejects(
      renderer.render(SHORT, 'A4', markPrefix()),
      isRenderError('render_failed', /^The HTML renderer is unavailable: Chromium could not start\.$/),
    )
    const warning = logger.entries.find((e) => e.level === 'warn')
    assert.equal(warning?.object.chromium_path, '/nonexistent/chromium')
  })
})

describe('ChromiumRenderer: limits', () => {
  it('never runs more renders at once than its concurrency', async () => {
    const inFlight: number[] = []
    const renderer = testRenderer({
      concurrency: 2,
      queueLimit: 10,
      queuePerAccount: 10,
      onRenderStart: (n) => inFlight.push(n),
    })
    const rendered = await Promise.all(
      Array.from({ length: 7 }, () => renderer.render(SHORT, 'A4', markPrefix())),
    )
    assert.equal(rendered.length, 7)
    assert.equal(inFlight.length, 7)
    assert.equal(Math.max(...inFlight), 2)
  })

  it('500 html_render_failed with Retry-After at once when the queue is full', async () => {
    const renderer = testRenderer({ concurrency: 1, queueLimit: 1 })
    const [first, second, third] = [1, 2, 3].map(() => renderer.render(SHORT, 'A4', markPrefix()))
    await assert.rejects(third!, (error: unknown) => {
      isRenderError('busy', /busy \(1 renders running, 1 waiting\)/)(error)
      assert.equal((error as RenderError).retryAfterSeconds, 5)
      return true
    })
    assert.equal((await first!).pages, 1)
    assert.equal((await second!).pages, 1)
  })

  it('422 invalid_request when the document renders to more pages than the cap', async () => {
    const renderer = testRenderer({ maxPages: 3 })
    const pages = (n: number) => '<p style="break-after:page">page</p>'.repeat(n - 1).concat('<p>last</p>')
    assert.equal((await renderer.render(pages(3), 'A4', markPrefix())).pages, 3)
    await assert.rejects(renderer.render(pages(5), 'A4', markPrefix()), (error: unknown) => {
      isRenderError('refused_html', /^html: the document renders to more than 3 pages; at most 3/)(error)
      return true
    })
  })
})

describe('ChromiumRenderer: close', () => {
  it('leaves no Chromium process behind', async () => {
    const renderer = testRenderer()
    await renderer.render(SHORT, 'A4', markPrefix())
    const pid = await renderer.browserPid()
    assert.ok(pid)
    assert.ok(groupMembers(pid).length > 1, 'the browser and its helpers share its process group')
    await renderer.close()
    await waitFor(() => groupMembers(pid).length === 0, 5000, 'the browser processes to exit')
    await assert.rejects(
      renderer.render(SHORT, 'A4', markPrefix()),
      isRenderError('render_failed', /shut down/),
    )
  })

  it('never launches Chromium when unused', async () => {
    const renderer = testRenderer()
    assert.equal(await renderer.browserPid(), undefined)
    await renderer.close()
    assert.equal(await renderer.browserPid(), undefined)
  })
})
