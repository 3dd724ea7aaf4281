import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { docxHtmlDocument, tidyFragment } from './docx-page.ts'

describe('tidyFragment', () => {
  it('removes soft hyphens and bookmark anchors inside a tag, across inline elements', () => {
    const fragment = '<p>{{Na\u00ad<a id="b1"></a><strong>me</strong>;role=A}}</p>'
    assert.equal(tidyFragment(fragment), '<p>{{Na<strong>me</strong>;role=A}}</p>')
  })

  it('leaves soft hyphens, anchors and links outside tags, and links inside them', () => {
    const fragment = '<p>hy\u00adphen <a id="keep"></a>{{A<a href="#x">b</a>;role=A}}</p>'
    assert.equal(tidyFragment(fragment), fragment)
  })

  it('leaves an unterminated or over-long brace run as it is', () => {
    const long = `<p>{{${'x\u00ad'.repeat(1500)}}}</p>`
    assert.equal(tidyFragment(long), long)
    assert.equal(tidyFragment('<p>{{Na\u00adme</p>'), '<p>{{Na\u00adme</p>')
  })

  it("turns mammoth's page-break paragraph into a block the stylesheet breaks after", () => {
    assert.equal(
      tidyFragment('<p>a</p><p><hr class="page-break" /></p><p>b</p>'),
      '<p>a</p><div class="page-break"></div><p>b</p>',
    )
  })
})

describe('tidyFragment: links', () => {
  it('keeps http(s), mailto and in-document links, and drops any other target', () => {
    const kept =
      '<a href="https://example.com/a?b=1&amp;c=2">w</a><a href="mailto:x@example.com">m</a><a href="#x">i</a>'
    assert.equal(tidyFragment(kept), kept)
    assert.equal(
      tidyFragment(
        '<a href="javascript:alert(1)">j</a><a href="file:///etc/passwd">f</a><a href=" JAVASCRIPT:x">s</a>',
      ),
      '<a>j</a><a>f</a><a>s</a>',
    )
  })
})

describe('docxHtmlDocument', () => {
  it('escapes the title and sets no page margins (the renderer owns them)', () => {
    const html = docxHtmlDocument('<p>x</p>', '</title><script>')
    assert.match(html, /<title>&lt;\/title&gt;&lt;script&gt;<\/title>/)
    assert.doesNotMatch(html, /@page/)
    assert.match(html, /<body>\n<p>x<\/p>\n<\/body>/)
  })
})
