// Tags in the parts mammoth does not convert (headers, footers) are refused, even split over runs;
// text that only looks like markup cannot slow the search down.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { refuseTagsInUnreadParts } from './docx-unread-parts.ts'
import type { RenderError } from './render-error.ts'

const part = (xml: string) => Buffer.from(xml, 'utf8')

describe('refuseTagsInUnreadParts', () => {
  it('refuses a tag in a footer, split over runs, naming the part', () => {
    const footer = part('<w:ftr><w:p><w:r><w:t>{</w:t></w:r><w:r><w:t>{Sign}}</w:t></w:r></w:p></w:ftr>')
    assert.throws(
      () => refuseTagsInUnreadParts(new Map([['word/footer2.xml', footer]])),
      (e: RenderError) => e.reason === 'refused_docx' && e.message.includes('footer (word/footer2.xml)'),
    )
  })

  it('leaves the body and tagless headers alone', () => {
    refuseTagsInUnreadParts(
      new Map([
        ['word/document.xml', part('<w:t>{{A}}</w:t>')],
        ['word/header1.xml', part('<w:t>{ not a tag }</w:t>')],
      ]),
    )
  })

  it('reads "<" without a ">" in one pass (the markup pattern was quadratic: 80 KB took 5 s)', () => {
    // A guard on the complexity, not a benchmark: 40 000 took 3.5 s before, 1 ms now.
    const header = part(`${'<'.repeat(40_000)}{{A}}`)
    const started = performance.now()
    assert.throws(() => refuseTagsInUnreadParts(new Map([['word/header1.xml', header]])), /header/)
    assert.ok(performance.now() - started < 300, `${performance.now() - started} ms`)
  })
})
