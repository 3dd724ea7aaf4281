// Word wrapping for the audit trail: lines break at spaces, and a word too long
// for its line (an e-mail address, a hash, an id, a user agent token) breaks only where a reader
// still sees what it is: an e-mail after "@" or a dot (then after "-", "_" or "+"), a hash between
// fixed groups of 16 hex digits, an id after its prefix, an IP address nowhere, anything else after "/", ";", ",", ":" or
// ".". Only a piece longer than a whole line with none of these is cut between characters.
import type { TextFont } from '../text/fonts.ts'
import { widthAt } from '../text/text-fit.ts'

interface Piece {
  text: string
  width: number
}

const EMAIL = /^[^@\s]+@[^@\s]+$/
const HASH = /^(\W*)([0-9a-fA-F]{32,})(\W*)$/
const ID = /^(\W*[a-z]{3,4}_)([0-9A-Za-z]{24}\W*)$/
// An IPv4 or IPv6 address is short: it moves to a line of its own rather than break.
const IP = /^\W*(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-fA-F:]*:[0-9a-fA-F:.]*)\W*$/
const HASH_GROUP = 16
// Shaping cost grows with length: a piece this long is measured character by character.
const LONG_PIECE = 64

/** Cuts `text` after each character of `after`; the pieces joined are `text`. */
function splitAfter(text: string, after: string): string[] {
  const pieces: string[] = []
  let start = 0
  for (let i = 0; i < text.length; i++) {
    if (after.includes(text[i]!) && i + 1 < text.length) {
      pieces.push(text.slice(start, i + 1))
      start = i + 1
    }
  }
  return [...pieces, text.slice(start)]
}

/** The hex digits in groups of HASH_GROUP, the punctuation around them kept on the end groups. */
function hashGroups(before: string, hex: string, after: string): string[] {
  const groups = hex.match(new RegExp(`.{1,${HASH_GROUP}}`, 'g')) ?? []
  groups[0] = before + groups[0]
  groups[groups.length - 1] += after
  return groups
}

/** The boundaries a word may break at, best first: each tier is tried on what the one before left too long. */
function tiersOf(word: string): Array<(text: string) => string[]> {
  const hash = HASH.exec(word)
  if (hash) return [() => hashGroups(hash[1]!, hash[2]!, hash[3]!)]
  if (IP.test(word)) return []
  const id = ID.exec(word)
  if (id) return [() => [id[1]!, id[2]!]]
  if (EMAIL.test(word.replace(/^\W+|\W+$/g, ''))) {
    return [(text) => splitAfter(text, '@.'), (text) => splitAfter(text, '-_+')]
  }
  return [(text) => splitAfter(text, '/;,:.'), (text) => splitAfter(text, '-_=&?)')]
}

/** Between characters (whole code points with their combining marks), the last resort. */
function characters(font: TextFont, text: string, size: number, maxWidth: number): Piece[] {
  const pieces: Piece[] = []
  let piece: Piece = { text: '', width: 0 }
  for (const char of text.match(/\P{M}\p{M}*|\p{M}+/gu) ?? []) {
    const width = widthAt(font, char, size)
    if (piece.text && piece.width + width > maxWidth) {
      pieces.push(piece)
      piece = { text: '', width: 0 }
    }
    piece.text += char
    piece.width += width
  }
  return piece.text ? [...pieces, piece] : pieces
}

function measure(font: TextFont, text: string, size: number): number {
  if (text.length <= LONG_PIECE) return widthAt(font, text, size)
  return characters(font, text, size, Number.POSITIVE_INFINITY)[0]?.width ?? 0
}

/** Pieces packed greedily into lines of at most `maxWidth`. */
function pack(pieces: Piece[], maxWidth: number): Piece[] {
  const lines: Piece[] = []
  let line: Piece | undefined
  for (const piece of pieces) {
    if (line && line.width + piece.width <= maxWidth) {
      line = { text: line.text + piece.text, width: line.width + piece.width }
      continue
    }
    if (line) lines.push(line)
    line = piece
  }
  return line ? [...lines, line] : lines
}

/** `text` (one word) in lines of at most `maxWidth`, broken at the best boundaries that suffice. */
function breakWord(font: TextFont, word: string, size: number, maxWidth: number): Piece[] {
  const tiers = tiersOf(word)
  const split = (text: string, tier: number): Piece[] => {
    const width = measure(font, text, size)
    if (width <= maxWidth) return [{ text, width }]
    const cut = tiers[tier]
    if (!cut) return characters(font, text, size, maxWidth)
    const parts = cut(text)
    if (parts.length === 1) return split(text, tier + 1)
    return pack(
      parts.flatMap((part) => split(part, tier + 1)),
      maxWidth,
    )
  }
  return split(word, 0)
}

/**
 * Lines of at most `maxWidth`, broken at spaces; a word alone too long for a line is broken at
 * its own boundaries (above). Widths are summed piece by piece: kerning, ignored, is a fraction
 * of a point. Text must be drawable (fonts.ts drawableText).
 */
export function wrapAtBoundaries(font: TextFont, text: string, size: number, maxWidth: number): string[] {
  const space = widthAt(font, ' ', size)
  const lines: string[] = []
  let line: Piece | undefined
  for (const word of text.split(' ').filter(Boolean)) {
    const width = measure(font, word, size)
    if (line && line.width + space + width <= maxWidth) {
      line = { text: `${line.text} ${word}`, width: line.width + space + width }
      continue
    }
    if (line) lines.push(line.text)
    const pieces = width <= maxWidth ? [{ text: word, width }] : breakWord(font, word, size, maxWidth)
    lines.push(...pieces.slice(0, -1).map((p) => p.text))
    line = pieces.at(-1)
  }
  return line ? [...lines, line.text] : lines.length > 0 ? lines : ['']
}
