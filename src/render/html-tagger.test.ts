// The tag finder in its child process: the same answer as markTags in the server, each refusal
// with its code and message, a timeout as html_render_failed, and the server's event loop free
// while a 4 MB document is parsed.
import assert from 'node:assert/strict'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { after, describe, it } from 'node:test'
import { ChildPool } from '../child-pool/child-pool.ts'
import type { TagAnswer, TagRequest } from './html-tag-protocol.ts'
import { closeHtmlTagger, findTags } from './html-tagger.ts'
import { markTags } from './html-tags.ts'
import type { RenderError } from './render-error.ts'

const PREFIX = 'https://fields.paraph.invalid/n0nce/'
const HTML = { path: 'html', lines: true } as const

describe('findTags (in a child process)', () => {
  after(() => closeHtmlTagger())

  it('answers what markTags answers: the marked HTML and each tag with where it is', async () => {
    const html =
      '<!DOCTYPE html><p>Buyer:\n {{Sign;role=Buyer}}</p><table><tr><td>{{Da<b>te</b>;type=date}}</td></tr></table>'
    assert.deepEqual(await findTags(html, PREFIX, HTML), markTags(html, PREFIX, HTML))
  })

  it('refuses a bad tag as invalid_template_tag and a document as a whole as invalid_request, with their messages', async () => {
    await assert.rejects(
      findTags('<p>Sign: {{A;colour=red}}</p>', PREFIX, HTML),
      (e: RenderError) =>
        e.reason === 'bad_tag' &&
        /^html: the tag "\{\{A;colour=red\}\}" \(line 1, column 10, after "Sign:"\): /.test(e.message),
    )
    await assert.rejects(
      findTags(`${'<div>'.repeat(600)}{{A}}`, PREFIX, { path: 'file', lines: false }),
      (e: RenderError) =>
        e.reason === 'refused_html' && e.message.startsWith('file: elements are nested more than 512 deep'),
    )
  })

  it('a child that outlives its time is html_render_failed, and the next document is read', async () => {
    const big = `<p>${'word '.repeat(800_000)}{{A}}</p>`
    await assert.rejects(
      findTags(big, PREFIX, HTML, { timeoutMs: 1 }),
      (e: RenderError) => e.reason === 'render_failed' && /took longer than 0.001 s/.test(e.message),
    )
    assert.equal((await findTags('<p>{{A}}</p>', PREFIX, HTML)).tags.length, 1)
  })

  it("leaves the server's event loop free while a 4 MB document is parsed (about a second of parse5)", async () => {
    const big = `<p>${'word '.repeat(800_000)}{{A}}</p>`
    await findTags('<p>{{A}}</p>', PREFIX, HTML) // a warm child
    const delay = monitorEventLoopDelay({ resolution: 10 })
    delay.enable()
    const { tags } = await findTags(big, PREFIX, HTML)
    delay.disable()
    assert.equal(tags.length, 1)
    // A guard, not a benchmark: in the server the parse alone blocked the loop for 0.4–1.1 s.
    assert.ok(delay.max / 1e6 < 250, `the event loop stalled ${delay.max / 1e6} ms`)
  })

  it('serves accounts fairly (issue #20): with its one child busy, another account overtakes a queue of the first', async () => {
    const pool = new ChildPool<Omit<TagRequest, 'id'>, TagAnswer>({
      name: 'HTML tag finder',
      script: { source: new URL('./html-tag-child.ts', import.meta.url), bundle: 'html-tagger.mjs' },
      size: 1,
      memoryLimitBytes: 1024 * 1024 * 1024,
    })
    const dir = await mkdtemp(join(tmpdir(), 'paraph-fair-tags-'))
    try {
      await writeFile(join(dir, 'in.html'), '<p>{{A}}</p>')
      const request = (name: string) => ({
        input: join(dir, 'in.html'),
        output: join(dir, `${name}.html`),
        markPrefix: PREFIX,
        source: HTML,
      })
      const finished: string[] = []
      const run = (name: string, account: string) =>
        pool.run(request(name), 10_000, account).then((answer) => {
          assert.ok(answer.ok, JSON.stringify(answer))
          finished.push(name)
        })
      // Queued in this order, in one tick: the child takes A1; A2, A3 and B1 wait.
      await Promise.all([run('A1', 'acct_A'), run('A2', 'acct_A'), run('A3', 'acct_A'), run('B1', 'acct_B')])
      assert.deepEqual(finished, ['A1', 'B1', 'A2', 'A3'], 'plain FIFO would have made B1 last')
    } finally {
      pool.close()
      await rm(dir, { recursive: true, force: true })
    }
  })
})
