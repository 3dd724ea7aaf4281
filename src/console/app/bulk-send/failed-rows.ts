// "Download failed rows (CSV)": the rows of a bulk send that failed, as the person wrote them, with
// an `errors` column saying why — fixed, the file can be sent again as it is. Pure.
import { type CsvTable, writeCsv } from './csv.ts'

/** An error of a row, as the check and the job's rows give it. */
export interface RowError {
  column: string
  message: string
}

export interface FailedRow {
  row: number
  external_id: string | null
  errors: RowError[]
}

/** `Start date: must be a date YYYY-MM-DD; …`, each error under the column the person knows it by. */
export function errorsText(errors: RowError[], header: (column: string) => string): string {
  return errors.map((e) => (e.column ? `${header(e.column)}: ${e.message}` : e.message)).join('; ')
}

/**
 * The failed rows' CSV: the original header and cells plus `errors` when the file the job was sent
 * from is known (this tab sent it); otherwise what the API knows of each row — its number, its
 * `external_id` and its errors.
 */
export function failedRowsCsv(
  failed: FailedRow[],
  source: CsvTable | undefined,
  header: (column: string) => string = (column) => column,
): string {
  if (!source) {
    return writeCsv(
      ['row', 'external_id', 'errors'],
      failed.map((f) => [String(f.row), f.external_id ?? '', errorsText(f.errors, header)]),
    )
  }
  return writeCsv(
    [...source.header, 'errors'],
    failed.map((f) => [...(source.rows[f.row - 1] ?? []), errorsText(f.errors, header)]),
  )
}
