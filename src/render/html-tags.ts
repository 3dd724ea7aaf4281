// Finds the `{{…}}` tag variables of an HTML document (docs/api.md#syntax) and replaces each by an
// empty marker box the size of its field, so that Chromium lays the field out where the tag stood
// and reports the box back (print-page.ts: each marker is a link whose PDF annotation gives
// its page and rectangle, and is then removed). The tag's text is gone from the document, so it
// neither shows nor can be extracted from the PDF; the text around it is untouched.
// Decisions where the contract is silent:
// - A tag is read from the document's text, not its markup: a tag split across inline elements
//   (`{{Na<b>me</b>;role=A}}`, as Word's runs become after DOCX conversion) counts, its text taken
//   with the markup removed. It may not cross a block boundary (a paragraph, cell, list item, <br>,
//   an image…): there, `{{` without `}}` is an unclosed tag.
// - Text in <head>, <script>, <style>, <template>, <textarea>, <noscript>, SVG and MathML, and in
//   attributes, is not document text: a `{{` there is left alone.
// - The marker box replaces the tag in the line: a 160×48 pt signature makes its line as tall as
//   the box, which is where the signer's ink goes. Its style is inline and !important, so the
//   document's own CSS (`a { display: none }`) cannot hide or resize it.
// - Tags with the same name are one field with one area per tag (initials on every page): they
//   must agree on everything else (checked where the fields are built, tagged-fields.ts).
import {
  defaultTreeAdapter as adapter,
  html as htmlNs,
  serialize,
  type DefaultTreeAdapterTypes as T,
} from 'parse5'
import { LIMITS } from '../limits.ts'
import { parseBounded } from './html-parse.ts'
import { parseTag, TagProblem, type TagSpec } from './text-tags.ts'

export interface FoundTag {
  /** Order of appearance; the marker's link ends with it. */
  index: number
  spec: TagSpec
  /** The tag as it reads, markup removed: `{{Name;role=A}}`. */
  text: string
  /** Where it is, for messages: `line 12, column 7, after "Signed for the buyer:"`. */
  where: string
}

/** Where a tag error is reported: `html` (with line and column) or `file` (a DOCX: no lines to give). */
export interface TagSource {
  path: 'html' | 'file'
  lines: boolean
}

/** An error in a tag, with the request path, the tag's text and where it is. */
export class TagSyntaxError extends Error {
  override readonly name = 'TagSyntaxError'
}

// Inline elements: a tag may run through them. Anything else is a boundary.
const INLINE = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'big',
  'cite',
  'code',
  'data',
  'del',
  'dfn',
  'em',
  'font',
  'i',
  'ins',
  'kbd',
  'label',
  'mark',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strike',
  'strong',
  'sub',
  'sup',
  'time',
  'tt',
  'u',
  'var',
])
// Never document text.
const SKIPPED = new Set(['head', 'script', 'style', 'template', 'textarea', 'title', 'svg', 'math'])
const MAX_TAG_LENGTH = 2000
const CONTEXT = 40

type Parent = T.ParentNode

/** Text nodes between two block boundaries, in document order. */
function segments(document: T.Document): T.TextNode[][] {
  const out: T.TextNode[][] = []
  let current: T.TextNode[] = []
  const cut = () => {
    if (current.length > 0) out.push(current)
    current = []
  }
  const walk = (node: Parent) => {
    for (const child of node.childNodes) {
      if (adapter.isTextNode(child)) {
        current.push(child)
        continue
      }
      if (!adapter.isElementNode(child)) continue
      if (SKIPPED.has(child.tagName) || child.namespaceURI !== htmlNs.NS.HTML) {
        cut()
        continue
      }
      const inline = INLINE.has(child.tagName)
      if (!inline) cut()
      walk(child)
      if (!inline) cut()
    }
  }
  walk(document)
  cut()
  return out
}

/**
 * Line and column of offsets in text nodes, for messages. Tags are met in document order, so the
 * newlines of a node are counted once, forward from the last place asked (a 2 MB text node with
 * 500 tags was 500 counts of its whole prefix).
 */
class LineCounter {
  #node: T.TextNode | undefined
  #offset = 0
  #newlines = 0
  #lastNewline = -1

  at(node: T.TextNode, offset: number): string {
    const location = node.sourceCodeLocation
    if (!location) return ''
    if (node !== this.#node || offset < this.#offset) {
      this.#node = node
      this.#offset = 0
      this.#newlines = 0
      this.#lastNewline = -1
    }
    for (
      let i = node.value.indexOf('\n', this.#offset);
      i >= 0 && i < offset;
      i = node.value.indexOf('\n', i + 1)
    ) {
      this.#newlines++
      this.#lastNewline = i
    }
    this.#offset = offset
    const line = location.startLine + this.#newlines
    const column = this.#newlines > 0 ? offset - this.#lastNewline : location.startCol + offset
    return `line ${line}, column ${column}`
  }
}

/** Index of the node holding `position` of the segment's text: the last offset at or before it. */
function nodeAt(offsets: number[], position: number): number {
  let low = 0
  let high = offsets.length - 1
  while (low < high) {
    const middle = (low + high + 1) >> 1
    if (offsets[middle]! <= position) low = middle
    else high = middle - 1
  }
  return low
}

function quoteBefore(text: string, start: number): string {
  const before = text
    .slice(Math.max(0, start - 200), start)
    .replace(/\s+/g, ' ')
    .trim()
  if (before === '') return 'at the start of its paragraph'
  const tail = before.length > CONTEXT ? `…${before.slice(-CONTEXT)}` : before
  return `after "${tail}"`
}

function marker(href: string, spec: TagSpec): T.Element {
  const style = [
    'display:inline-block',
    `width:${spec.width}pt`,
    `height:${spec.height}pt`,
    'margin:0',
    'padding:0',
    'border:0',
    'vertical-align:baseline',
    'visibility:visible',
    'position:static',
  ]
    .map((rule) => `${rule} !important`)
    .join(';')
  return adapter.createElement('a', htmlNs.NS.HTML, [
    { name: 'href', value: href },
    { name: 'style', value: style },
  ])
}

interface Match {
  start: number
  end: number
  text: string
  where: string
}

function tooManyTags(source: TagSource): TagSyntaxError {
  return new TagSyntaxError(
    `${source.path}: more than ${LIMITS.tagsPerDocument} tags; a document takes at most ${LIMITS.tagsPerDocument} (tags with one name are one field with an area each).`,
  )
}

/**
 * The `{{…}}` spans of one segment's text, or a TagSyntaxError for one left open, or once more
 * than `room` are found (before working out where each is).
 */
function matches(
  text: string,
  nodes: T.TextNode[],
  offsets: number[],
  source: TagSource,
  room: number,
): Match[] {
  const found: Match[] = []
  const lines = new LineCounter()
  const where = (start: number) => {
    const i = nodeAt(offsets, start)
    const place = source.lines ? lines.at(nodes[i]!, start - offsets[i]!) : ''
    return [place, quoteBefore(text, start)].filter(Boolean).join(', ')
  }
  let from = 0
  for (;;) {
    const start = text.indexOf('{{', from)
    if (start < 0) return found
    const close = text.indexOf('}}', start + 2)
    const reopen = text.indexOf('{{', start + 2)
    if (close < 0 || (reopen >= 0 && reopen < close)) {
      const shown = text.slice(start, start + 60).replace(/\s+/g, ' ')
      throw new TagSyntaxError(
        `${source.path}: the tag "${shown}${text.length > start + 60 ? '…' : ''}" (${where(start)}) is not closed by "}}" in the same paragraph.`,
      )
    }
    const end = close + 2
    if (end - start > MAX_TAG_LENGTH)
      throw new TagSyntaxError(
        `${source.path}: the tag at ${where(start)} is longer than ${MAX_TAG_LENGTH} characters.`,
      )
    if (found.length === room) throw tooManyTags(source)
    found.push({ start, end, text: text.slice(start, end), where: where(start) })
    from = end
  }
}

/** Removes [start, end) of the segment's text from its nodes and puts `element` where it began. */
function replace(nodes: T.TextNode[], offsets: number[], start: number, end: number, element: T.Element) {
  let placed = false
  for (let i = nodeAt(offsets, start); i < nodes.length && offsets[i]! < end; i++) {
    const node = nodes[i]!
    const nodeStart = offsets[i]!
    const nodeEnd = nodeStart + node.value.length
    if (nodeEnd <= start) continue
    const from = Math.max(start, nodeStart) - nodeStart
    const to = Math.min(end, nodeEnd) - nodeStart
    const after = node.value.slice(to)
    node.value = node.value.slice(0, from)
    if (!placed) {
      placed = true
      const parent = node.parentNode!
      const next = parent.childNodes[parent.childNodes.indexOf(node) + 1]
      const rest = after === '' ? null : textNode(after)
      for (const inserted of rest ? [element, rest] : [element]) {
        if (next) adapter.insertBefore(parent, inserted, next)
        else adapter.appendChild(parent, inserted)
      }
      // What followed the tag in this node moved to `rest`: later nodes of the range are untouched.
      if (rest) return
    } else {
      node.value += after
    }
  }
}

function textNode(value: string): T.TextNode {
  return { nodeName: '#text', value, parentNode: null }
}

/**
 * The document's tags, each replaced by a marker link `${markPrefix}${index}`; the marked HTML to
 * render. Throws TagSyntaxError (a malformed or unclosed tag, too many tags).
 */
export function markTags(
  html: string,
  markPrefix: string,
  source: TagSource,
): { html: string; tags: FoundTag[] } {
  const document = parseBounded(html, source)
  const tags: FoundTag[] = []
  for (const nodes of segments(document)) {
    const offsets: number[] = []
    let text = ''
    for (const node of nodes) {
      offsets.push(text.length)
      text += node.value
    }
    if (!text.includes('{{')) continue
    const found = matches(text, nodes, offsets, source, LIMITS.tagsPerDocument - tags.length)
    const specs = found.map((m) => {
      try {
        return parseTag(m.text.slice(2, -2))
      } catch (error) {
        if (!(error instanceof TagProblem)) throw error
        throw new TagSyntaxError(`${source.path}: the tag "${m.text}" (${m.where}): ${error.message}.`)
      }
    })
    const first = tags.length
    found.forEach((m, k) => {
      tags.push({ index: first + k, spec: specs[k]!, text: m.text, where: m.where })
    })
    // From the last to the first, so that each match's offsets still hold when it is replaced.
    for (let k = found.length - 1; k >= 0; k--) {
      const m = found[k]!
      replace(nodes, offsets, m.start, m.end, marker(`${markPrefix}${first + k}`, specs[k]!))
    }
  }
  return { html: serialize(document), tags }
}
