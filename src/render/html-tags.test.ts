// Finding the tags of an HTML document and putting marker boxes in their place: split tags, what
// is not document text, where a bad tag is, and the text around each tag left as it was.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { parse } from 'parse5'
import { LIMITS } from '../limits.ts'
import { markTags, TagSyntaxError } from './html-tags.ts'
import type { RenderError } from './render-error.ts'

const PREFIX = 'https://fields.paraph.invalid/n0nce/'
const HTML = { path: 'html', lines: true } as const
const mark = (html: string) => markTags(html, PREFIX, HTML)

/** The text of the marked document's body with each marker shown as [index]. */
function rendered(html: string): string {
  const out: string[] = []
  const walk = (node: { childNodes?: unknown[] }) => {
    for (const child of (node.childNodes ?? []) as Array<Record<string, unknown>>) {
      if (child.nodeName === '#text') out.push(child.value as string)
      else if (
        child.nodeName === 'a' &&
        String((child.attrs as Array<{ value: string }>)[0]?.value).startsWith(PREFIX)
      )
        out.push(`[${String((child.attrs as Array<{ value: string }>)[0]!.value).slice(PREFIX.length)}]`)
      else if (!['script', 'style', 'head'].includes(child.nodeName as string)) walk(child as never)
    }
  }
  walk(parse(html) as never)
  return out.join('')
}

const refused = (html: string, message: RegExp) =>
  assert.throws(
    () => mark(html),
    (error: unknown) => error instanceof TagSyntaxError && message.test(error.message),
  )

describe('markTags', () => {
  it('replaces each tag by a marker sized for its field and leaves the text around it', () => {
    const { html, tags } = mark('<p>Buyer: {{Sig;role=Buyer}} — dated {{On;type=date;role=Buyer}}.</p>')
    assert.equal(rendered(html), 'Buyer: [0] — dated [1].')
    assert.deepEqual(
      tags.map((t) => [t.index, t.text, t.spec.name, t.spec.type, t.spec.role]),
      [
        [0, '{{Sig;role=Buyer}}', 'Sig', 'signature', 'Buyer'],
        [1, '{{On;type=date;role=Buyer}}', 'On', 'date', 'Buyer'],
      ],
    )
    assert.match(
      html,
      /href="https:\/\/fields\.paraph\.invalid\/n0nce\/0" style="display:inline-block !important;width:160pt !important;height:48pt !important/,
    )
    assert.match(
      html,
      /\/1" style="display:inline-block !important;width:96pt !important;height:18pt !important/,
    )
    assert.doesNotMatch(html, /\{\{/)
  })

  it('reads a tag split across inline elements, keeping the elements', () => {
    const { html, tags } = mark('<p>x {{Na<b>me</b><span>;ro</span>le=A}} y</p>')
    assert.equal(tags[0]?.text, '{{Name;role=A}}')
    assert.equal(tags[0]?.spec.role, 'A')
    assert.equal(rendered(html), 'x [0] y')
    assert.match(html, /<b><\/b><span><\/span>/)
  })

  it('finds tags in tables, lists and nested blocks, in document order', () => {
    const { tags } = mark(
      '<table><tr><td>{{A}}</td><td>{{B}}</td></tr></table><ol><li>one {{C}}</li><li><div><em>{{D}}</em></div></li></ol>',
    )
    assert.deepEqual(
      tags.map((t) => t.spec.name),
      ['A', 'B', 'C', 'D'],
    )
  })

  it('leaves alone what is not document text: head, script, style, textarea, attributes, SVG', () => {
    const { tags, html } = mark(
      '<html><head><title>{{T}}</title><style>/* {{S}} */</style></head><body><script>"{{J}}"</script><textarea>{{X}}</textarea><img alt="{{I}}"><svg><text>{{V}}</text></svg><p>{{Real}}</p></body></html>',
    )
    assert.deepEqual(
      tags.map((t) => t.spec.name),
      ['Real'],
    )
    for (const kept of ['{{T}}', '{{S}}', '{{J}}', '{{X}}', '{{I}}', '{{V}}'])
      assert.ok(html.includes(kept), kept)
  })

  it('finds no tag in a document without one', () => {
    assert.deepEqual(mark('<p>Hello {not a tag} }} world</p>').tags, [])
  })

  it('refuses an unclosed tag, one crossing a block, and a bad attribute, saying where', () => {
    refused(
      '<p>one</p>\n<p>Sign {{Sig;role=A</p><p>}}</p>',
      /the tag "\{\{Sig;role=A" \(line 2, column 9, after "Sign"\) is not closed/,
    )
    refused('<p>a {{Sig<br>;role=A}}</p>', /not closed by "\}\}" in the same paragraph/)
    refused('<p>a {{x {{y}}</p>', /the tag "\{\{x \{\{y\}\}" .* is not closed/)
    refused(
      '<p>\n\nSigned: {{Sig;rol=A}}</p>',
      /the tag "\{\{Sig;rol=A\}\}" \(line 3, column 9, after "Signed:"\): unknown attribute "rol"/,
    )
    refused('<p>{{Sig;type=stamp}}</p>', /at the start of its paragraph\): unsupported type "stamp"/)
  })

  it('a DOCX source says where by the text before the tag, without lines', () => {
    assert.throws(
      () => markTags('<p>The seller, hereby: {{S;type=nope}}</p>', PREFIX, { path: 'file', lines: false }),
      /^TagSyntaxError: file: the tag "\{\{S;type=nope\}\}" \(after "The seller, hereby:"\): unsupported type/,
    )
  })

  it(`refuses more than ${LIMITS.tagsPerDocument} tags`, () => {
    mark(`<p>${'{{A}} '.repeat(LIMITS.tagsPerDocument)}</p>`)
    refused(`<p>${'{{A}} '.repeat(LIMITS.tagsPerDocument + 1)}</p>`, /more than 500 tags/)
  })

  it(`refuses elements nested more than ${LIMITS.htmlDepth} deep (html and body count), saying where`, () => {
    const nested = (n: number) => `<p>{{A}}</p>\n${'<div>'.repeat(n)}x${'</div>'.repeat(n)}`
    assert.equal(mark(nested(LIMITS.htmlDepth - 2)).tags.length, 1)
    assert.throws(
      () => mark(nested(LIMITS.htmlDepth - 1)),
      (e: RenderError) =>
        e.reason === 'refused_html' &&
        e.message ===
          `html: elements are nested more than ${LIMITS.htmlDepth} deep (line 2); at most ${LIMITS.htmlDepth} are accepted.`,
    )
  })

  it('refuses a deep document while parsing, before the stack of a walk could overflow', () => {
    // 370 000 levels fill the 4 MB body; walking them recursively threw RangeError (a 500).
    assert.throws(() => mark(`${'<div>'.repeat(370_000)}{{A}}`), /nested more than 512 deep/)
    assert.throws(() => markTags(`${'<span>'.repeat(50_000)}{{A}}`, PREFIX, { path: 'file', lines: false }), {
      message: 'file: elements are nested more than 512 deep; at most 512 are accepted.',
    })
  })

  it('says where each tag is by line and column, counting the newlines of a long text once', () => {
    const { tags } = mark(`<p>\n\n  a {{A}}\n    b {{B}}</p>`)
    assert.deepEqual(
      tags.map((t) => t.where),
      ['line 3, column 5, after "a"', 'line 4, column 7, after "a {{A}} b"'],
    )
    // 2 000 000 newlines and 500 tags in one text node: each tag's line used to recount them all.
    const { tags: many } = mark(`<p>${'\n'.repeat(2_000_000)}${'{{A}} '.repeat(LIMITS.tagsPerDocument)}</p>`)
    assert.equal(many.length, LIMITS.tagsPerDocument)
    assert.match(many.at(-1)!.where, /^line 2000001, column 2995, /)
  })

  it('stops at the first tag past the limit, before working out where the others are', () => {
    refused(`<p>${'{{a}}'.repeat(300_000)}</p>`, /more than 500 tags/)
    assert.throws(
      () => markTags(`<p>${'<b>{{a}}</b>'.repeat(60_000)}</p>`, PREFIX, { path: 'file', lines: false }),
      /more than 500 tags/,
    )
  })

  it(`refuses a document that makes more than ${LIMITS.htmlElements} elements`, () => {
    // 400 <b> left open in a <div> (distinct, or the parser keeps only 3 alike) are rebuilt in
    // every paragraph after it: 20 KB of input made 1.3 GB and 25 MB of HTML before this limit.
    const open = Array.from({ length: 400 }, (_, i) => `<b id=${i}>`).join('')
    const html = `<div>${open}</div>${'<p>x'.repeat(2_000)}{{A}}`
    assert.ok(html.length < 30_000)
    assert.throws(
      () => mark(html),
      (e: RenderError) =>
        e.reason === 'refused_html' &&
        e.message.startsWith(`html: the document makes more than ${LIMITS.htmlElements} elements`),
    )
  })

  it('counts the depth of elements inside <template> from the template', () => {
    assert.throws(() => mark(`${'<template>'.repeat(600)}{{A}}`), /nested more than 512 deep/)
  })

  it('reads tags in <noscript>, which Chromium shows with JavaScript off', () => {
    assert.equal(mark('<noscript><p>Sign: {{A}}</p></noscript>').tags.length, 1)
  })

  it('keeps the doctype and the rest of the document', () => {
    const { html } = mark(
      '<!DOCTYPE html><html lang="fr"><body><h1 class="t">Contrat</h1><p>{{A}}</p></body></html>',
    )
    assert.match(html, /^<!DOCTYPE html><html lang="fr">/)
    assert.match(html, /<h1 class="t">Contrat<\/h1>/)
  })
})
