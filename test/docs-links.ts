// The documentation's relative links: every `[text](path)` and `[text](path#anchor)`
// of a Markdown file must name a file that exists, and every anchor — in the same file or another
// .md file — a heading of the target, slugged as GitHub slugs it. http(s) and mailto links are not
// followed. Links inside fenced code blocks and inline code are not links. The code's own citations
// (`docs/api.md#limits` in a comment) are held to the same rule.
import { dirname, join, normalize } from 'node:path'

/** What the checker may see of the repository: paths relative to its root, `/`-separated. */
export interface DocSource {
  exists(path: string): boolean
  /** The text of a Markdown file; only called for paths that exist. */
  read(path: string): string
}

export interface DeadLink {
  file: string
  line: number
  target: string
  reason: string
}

const LINK = /!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g
const REFERENCE = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/
const FENCE = /^\s{0,3}(```|~~~)/

/** Lines outside fenced code blocks, with their 1-based numbers. */
function proseLines(text: string): { line: number; text: string }[] {
  const lines: { line: number; text: string }[] = []
  let fence: string | null = null
  text.split('\n').forEach((raw, index) => {
    const opening = FENCE.exec(raw)?.[1]
    if (opening !== undefined) {
      if (fence === null) fence = opening
      else if (opening === fence) fence = null
      return
    }
    if (fence === null) lines.push({ line: index + 1, text: raw })
  })
  return lines
}

/** GitHub's heading slug: the rendered text, lower-cased, punctuation dropped, spaces as hyphens. */
export function headingSlug(heading: string): string {
  const rendered = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|__|\*|~~)/g, '')
  return rendered
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-')
}

/** Every anchor a file's headings make, with GitHub's `-1`, `-2`… for repeated slugs. */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  for (const { text: line } of proseLines(text)) {
    const heading = HEADING.exec(line)?.[2]
    if (heading === undefined) continue
    const slug = headingSlug(heading)
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    anchors.add(count === 0 ? slug : `${slug}-${count}`)
  }
  return anchors
}

/** The link targets of one file, code left out. */
export function linksOf(text: string): { line: number; target: string }[] {
  const links: { line: number; target: string }[] = []
  for (const { line, text: raw } of proseLines(text)) {
    const prose = raw.replace(/(`+)[^`]*?\1/g, '')
    for (const match of prose.matchAll(LINK)) links.push({ line, target: match[1] as string })
    const reference = REFERENCE.exec(prose)?.[1]
    if (reference !== undefined) links.push({ line, target: reference })
  }
  return links
}

function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target)
}

/** Dead links of `files` (repository paths of Markdown files). */
export function deadLinks(files: readonly string[], source: DocSource): DeadLink[] {
  const anchorCache = new Map<string, Set<string>>()
  const anchors = (path: string) => {
    let found = anchorCache.get(path)
    if (!found) {
      found = anchorsOf(source.read(path))
      anchorCache.set(path, found)
    }
    return found
  }
  const dead: DeadLink[] = []
  for (const file of files) {
    for (const { line, target } of linksOf(source.read(file))) {
      if (isExternal(target)) continue
      const hashAt = target.indexOf('#')
      const pathPart = hashAt === -1 ? target : target.slice(0, hashAt)
      const anchor = hashAt === -1 ? null : decodeURIComponent(target.slice(hashAt + 1))
      const path = pathPart === '' ? file : normalize(join(dirname(file), decodeURIComponent(pathPart)))
      if (path.startsWith('..') || !source.exists(path)) {
        dead.push({ file, line, target, reason: `no file ${path}` })
      } else if (anchor !== null && path.endsWith('.md') && !anchors(path).has(anchor)) {
        dead.push({ file, line, target, reason: `no heading with the anchor #${anchor} in ${path}` })
      }
    }
  }
  return dead
}

/** `docs/….md` and `docs/….md#anchor` as the code's comments cite them, with their 1-based lines. */
export function citationsOf(text: string): { line: number; target: string }[] {
  const citations: { line: number; target: string }[] = []
  text.split('\n').forEach((raw, index) => {
    for (const match of raw.matchAll(/\bdocs\/[\w./-]+?\.md(?:#[\w-]+)?/g)) {
      citations.push({ line: index + 1, target: match[0] })
    }
  })
  return citations
}

/** Citations of `files` (repository paths of source files) naming a missing doc or heading. */
export function deadCitations(files: readonly string[], source: DocSource): DeadLink[] {
  const dead: DeadLink[] = []
  const anchorCache = new Map<string, Set<string>>()
  for (const file of files) {
    for (const { line, target } of citationsOf(source.read(file))) {
      const [path, anchor] = target.split('#') as [string, string | undefined]
      if (!source.exists(path)) {
        dead.push({ file, line, target, reason: 'no such file' })
        continue
      }
      if (anchor === undefined) continue
      let anchors = anchorCache.get(path)
      if (!anchors) {
        anchors = anchorsOf(source.read(path))
        anchorCache.set(path, anchors)
      }
      if (!anchors.has(anchor)) dead.push({ file, line, target, reason: 'no such heading' })
    }
  }
  return dead
}
