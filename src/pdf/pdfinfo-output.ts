// Reads what `pdfinfo -box -f 1 -l N` (poppler) prints. Only structural lines are trusted: the
// document's own strings (Title, Author…) are printed raw, newlines included, so a file can forge
// lines like "Pages: 1" or "Page 1 MediaBox: …" in its Title.
import type { Rect } from './page-box.ts'

export interface PdfinfoPage {
  mediaBox?: Rect
  cropBox?: Rect
  rotate?: number
}

export interface PdfinfoReport {
  /** The document's page count, which may exceed the pages listed when -l stopped earlier. */
  pageCount: number
  encrypted: boolean
  version?: string
  /** By 1-based page number; a page poppler could not read has no entry or no mediaBox. */
  pages: Map<number, PdfinfoPage>
}

const PAGES = /^Pages:\s+(\d+)\s*$/
const PAGE_LINE = /^Page\s+(\d+)\s+(MediaBox|CropBox|rot):\s+(.*)$/
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)$/

function parseRect(text: string): Rect | undefined {
  const fields = text.trim().split(/\s+/)
  if (fields.length !== 4 || !fields.every((field) => NUMBER.test(field))) return undefined
  const [x1, y1, x2, y2] = fields.map(Number) as [number, number, number, number]
  return [x1, y1, x2, y2]
}

function readPageLine(pages: Map<number, PdfinfoPage>, line: string): void {
  const match = PAGE_LINE.exec(line)
  if (!match) return
  const [, number, key, value] = match as unknown as [string, string, string, string]
  const page = pages.get(Number(number)) ?? {}
  pages.set(Number(number), page)
  if (key === 'rot') {
    if (NUMBER.test(value.trim())) page.rotate = Number(value)
  } else {
    const rect = parseRect(value)
    if (rect) page[key === 'MediaBox' ? 'mediaBox' : 'cropBox'] = rect
  }
}

/**
 * Undefined when no page count was printed (pdfinfo failed). Reading starts at the LAST
 * "Pages:" line: pdfinfo prints every document string before it, so forged lines come earlier.
 */
export function parsePdfinfoOutput(stdout: string): PdfinfoReport | undefined {
  const lines = stdout.split(/\r?\n/)
  let start = lines.length - 1
  while (start >= 0 && !PAGES.test(lines[start]!)) start--
  if (start < 0) return undefined
  const report: PdfinfoReport = {
    pageCount: Number(PAGES.exec(lines[start]!)![1]),
    encrypted: false,
    pages: new Map(),
  }
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('Encrypted:')) report.encrypted = !/^Encrypted:\s+no\s*$/.test(line)
    else if (line.startsWith('PDF version:')) report.version = line.slice('PDF version:'.length).trim()
    else readPageLine(report.pages, line)
  }
  return report
}
