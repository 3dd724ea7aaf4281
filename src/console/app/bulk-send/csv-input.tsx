// "Send to many", step 1: the list, as a CSV file chosen or dropped, or pasted; read in the browser
// (csv.ts), its problems put in words before anything reaches the server.
import { useState } from 'preact/hooks'
import { DropZone } from '../drop-zone.tsx'
import { formatNumber } from '../format.ts'
import { fill, type Texts, useTexts } from '../texts.ts'
import { type CsvProblem, type CsvTable, CsvUnreadable, readCsv } from './csv.ts'

/** docs/api.md#bulk-send: 1 to 10 000 rows. */
export const MAX_ROWS = 10_000

export interface ReadList {
  table: CsvTable
  /** The file's name, or null when pasted. */
  source: string | null
}

function problemText(problem: CsvProblem, t: Texts): string {
  switch (problem.kind) {
    case 'empty':
      return t.bulk_csv_empty
    case 'columns':
      return fill(t.bulk_csv_columns, {
        line: problem.line,
        cells: problem.cells,
        expected: problem.expected,
      })
    case 'quote':
      return fill(t.bulk_csv_quote, { line: problem.line })
    case 'other':
      return fill(t.bulk_csv_other, { message: problem.message })
  }
}

/** The table of a CSV text, or the sentence saying why it is not one the API takes. */
function tableOf(text: string, t: Texts, language: 'en' | 'fr'): CsvTable | string {
  // A spreadsheet saved as .xlsx (a zip) or a UTF-16 text: NUL characters never occur in a CSV.
  if (text.includes('\u0000')) return t.bulk_csv_not_text
  try {
    const table = readCsv(text)
    if (table.rows.length === 0) return t.bulk_csv_no_rows
    if (table.rows.length > MAX_ROWS) {
      return fill(t.bulk_csv_too_many, { rows: formatNumber(language, table.rows.length) })
    }
    return table
  } catch (error) {
    if (error instanceof CsvUnreadable) return problemText(error.problem, t)
    throw error
  }
}

export function CsvInput({ onRead }: { onRead: (list: ReadList) => void }) {
  const { t, language } = useTexts()
  const [pasted, setPasted] = useState('')
  const [problem, setProblem] = useState<string>()
  const take = (text: string, source: string | null) => {
    const table = tableOf(text, t, language)
    if (typeof table === 'string') return setProblem(table)
    setProblem(undefined)
    onRead({ table, source })
  }
  const takeFile = async (file: File) => take(await file.text(), file.name)
  return (
    <section class="panel bulk-input" aria-labelledby="bulk-list-title">
      <h2 id="bulk-list-title">{t.bulk_list_title}</h2>
      <DropZone
        inputId="bulk-file"
        accept=".csv,text/csv,text/plain"
        hint={<p>{t.bulk_drop_hint}</p>}
        choose={t.bulk_choose_file}
        describedBy={problem ? 'bulk-csv-problem' : undefined}
        onFile={takeFile}
      />
      <form
        class="bulk-paste"
        onSubmit={(event) => {
          event.preventDefault()
          take(pasted, null)
        }}
      >
        <label for="bulk-pasted">{t.bulk_paste}</label>
        <textarea
          id="bulk-pasted"
          rows={5}
          spellcheck={false}
          value={pasted}
          placeholder="Employee.email,Employee.name,…"
          aria-describedby={problem ? 'bulk-csv-problem' : undefined}
          onInput={(event) => setPasted(event.currentTarget.value)}
        />
        <button type="submit" class="button" disabled={pasted.trim() === ''}>
          {t.bulk_read_pasted}
        </button>
      </form>
      {problem ? (
        <p class="error-note" role="alert" id="bulk-csv-problem">
          {problem}
        </p>
      ) : null}
    </section>
  )
}
