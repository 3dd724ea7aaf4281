// The cells the audit trail's tables are made of (audit-log-pdf.ts, audit-signer-block.ts): a label,
// a value or an em dash for none, an id or hash in monospace, a muted note; and the table of labelled
// values that the summary and each signer's details use.
import { type Cell, type Column, type Flow, MUTED, type Run } from './flow-layout.ts'

export const EMPTY = '—'
export const label = (text: string): Cell => [{ text, color: MUTED }]
export const plain = (text: string | null | undefined): Cell => [{ text: text ?? EMPTY }]
export const mono = (text: string, size = 7): Run => ({ text, font: 'mono', size })
export const muted = (text: string, size = 7): Run => ({ text, size, color: MUTED })
// Hashes and ids in DejaVu Sans Mono at 7 pt: 64 hex digits take 270 pt, within the value column.
export const HASH_SIZE = 7

export function keyValues(flow: Flow, rows: Array<[string, Cell]>, width = flow.width): void {
  const labelWidth = 110
  const columns: Column[] = [
    { title: '', width: labelWidth },
    { title: '', width: width - labelWidth },
  ]
  flow.table(
    columns,
    rows.map(([name, value]) => [label(name), value]),
    { header: false, width },
  )
}
