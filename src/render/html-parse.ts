// Parsing a document of the caller's within bounds (html-tags.ts reads its tags from the tree):
// at most LIMITS.htmlDepth elements deep and LIMITS.htmlElements elements in all, each refused
// while parsing, as soon as it is passed. <noscript> is parsed as markup, as Chromium does with
// JavaScript off.
import {
  defaultTreeAdapter as adapter,
  type html as htmlNs,
  parse,
  type DefaultTreeAdapterTypes as T,
} from 'parse5'
import { LIMITS } from '../limits.ts'
import type { TagSource } from './html-tags.ts'
import { RenderError } from './render-error.ts'

type Parent = T.ParentNode

function tooDeep(source: TagSource, line: number | undefined): RenderError {
  return new RenderError(
    'refused_html',
    `${source.path}: elements are nested more than ${LIMITS.htmlDepth} deep${line ? ` (line ${line})` : ''}; at most ${LIMITS.htmlDepth} are accepted.`,
  )
}

/**
 * Parses `html`, refusing a document whose elements nest deeper than LIMITS.htmlDepth: the tag
 * finder's walks (html-tags.ts) and parse5's serializer recurse, and would overflow the stack. The parser stops at the
 * first element too deep (a 4 MB `<div><div>…` is refused in milliseconds, not after parsing it
 * all); a walk without recursion then checks the finished tree, which the parser may have
 * rearranged (misnested formatting elements, content moved out of tables).
 */
export function parseBounded(html: string, source: TagSource): T.Document {
  const depths = new WeakMap<object, number>()
  let elements = 0
  const treeAdapter = {
    ...adapter,
    createElement(tagName: string, namespaceURI: htmlNs.NS, attrs: T.Element['attrs']) {
      // Misnested formatting elements are rebuilt in every new paragraph: 40 KB of input could
      // make millions of elements (gigabytes, and HTML far past what Chromium should receive).
      if (++elements > LIMITS.htmlElements)
        throw new RenderError(
          'refused_html',
          `${source.path}: the document makes more than ${LIMITS.htmlElements} elements (unclosed formatting elements such as <b> are repeated in every paragraph that follows them); at most ${LIMITS.htmlElements} are accepted.`,
        )
      return adapter.createElement(tagName, namespaceURI, attrs)
    },
    onItemPush(element: T.Element) {
      const depth = (depths.get(element.parentNode as object) ?? 0) + 1
      if (depth > LIMITS.htmlDepth) throw tooDeep(source, element.sourceCodeLocation?.startLine)
      depths.set(element, depth)
      if (element.tagName === 'template') depths.set(adapter.getTemplateContent(element as T.Template), depth)
    },
  }
  // scriptingEnabled: false parses <noscript> as markup, as Chromium does with JavaScript off.
  const document = parse(html, { sourceCodeLocationInfo: source.lines, scriptingEnabled: false, treeAdapter })
  const stack: Array<[Parent, number]> = [[document, 0]]
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!
    for (const child of node.childNodes) {
      if (!adapter.isElementNode(child)) continue
      if (depth + 1 > LIMITS.htmlDepth) throw tooDeep(source, child.sourceCodeLocation?.startLine)
      stack.push([child, depth + 1])
      // <template> keeps its children in a content fragment of its own.
      if (child.tagName === 'template')
        stack.push([adapter.getTemplateContent(child as T.Template), depth + 1])
    }
  }
  return document
}
