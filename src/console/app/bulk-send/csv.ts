// The CSV of a bulk send, read and written in the browser (docs/api.md#bulk-send: RFC 4180 — quoted
// commas, quotes and line breaks, CRLF or LF, a byte order mark ignored, a line with no field
// skipped, every row as wide as the header). Read with csv-parse, the parser the server uses
// (docs/decisions/0013-csv-parsing.md), so the console and the API agree on what a cell is.
import { parse } from 'csv-parse/browser/esm/sync'

export interface CsvTable {
  header: string[]
  /** Data rows, the first being the API's row 1. */
  rows: string[][]
}

/** Why a text is not a CSV the API takes, in terms the page puts in words (texts `bulk_csv_*`). */
export type CsvProblem =
  | { kind: 'empty' }
  | { kind: 'columns'; line: number; cells: number; expected: number }
  | { kind: 'quote'; line: number }
  | { kind: 'other'; message: string }

export class CsvUnreadable extends Error {
  readonly problem: CsvProblem
  constructor(problem: CsvProblem) {
    super(problem.kind)
    this.problem = problem
  }
}

interface ParseError {
  code?: string
  lines?: number
  record?: unknown[]
  message?: string
}

function problemOf(error: ParseError, width: number): CsvProblem {
  const line = error.lines ?? 0
  if (error.code === 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH') {
    return { kind: 'columns', line, cells: error.record?.length ?? 0, expected: width }
  }
  if (error.code?.startsWith('CSV_') && /QUOTE/.test(error.code)) return { kind: 'quote', line }
  return { kind: 'other', message: error.message ?? String(error) }
}

/** How many columns the header names (0 when even the header is unreadable). */
function headerWidth(text: string): number {
  try {
    return parse(text, { bom: true, skip_empty_lines: true, to: 1 })[0]?.length ?? 0
  } catch {
    return 0
  }
}

/** The header and rows of a CSV text; throws CsvUnreadable with the first problem. */
export function readCsv(text: string): CsvTable {
  let records: string[][]
  try {
    records = parse(text, { bom: true, skip_empty_lines: true })
  } catch (error) {
    throw new CsvUnreadable(problemOf(error as ParseError, headerWidth(text)))
  }
  const [header, ...rows] = records
  if (!header || header.every((name) => name.trim() === '')) throw new CsvUnreadable({ kind: 'empty' })
  return { header, rows }
}

/** One cell as RFC 4180 writes it: quoted when it holds a comma, a quote, a line break or edge spaces. */
function cell(value: string): string {
  return /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replaceAll('"', '""')}"` : value
}

/**
 * A CSV text (CRLF line ends). A row of one empty cell is written `""`, not as an empty line, which
 * a reader skips — the rows after it would change numbers.
 */
export function writeCsv(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => (cells.length === 1 && cells[0] === '' ? '""' : cells.map(cell).join(','))
  return `${[header, ...rows].map(line).join('\r\n')}\r\n`
}
