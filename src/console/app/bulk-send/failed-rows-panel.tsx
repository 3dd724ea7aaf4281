// A bulk send's failed rows (GET /v1/bulk_sends/{id}/rows?status=failed, in row order, cursor
// paged) with their errors, read again as more fail, and "Download failed rows (CSV)" built
// in the browser (failed-rows.ts): the rows as sent plus an `errors` column.
import { useEffect, useState } from 'preact/hooks'
import type { ApiFailure } from '../api.ts'
import { get, type Page, query } from '../api.ts'
import { formatNumber } from '../format.ts'
import { useTexts } from '../texts.ts'
import { asFailure, ErrorNote, Loading, useAction } from '../ui.tsx'
import type { BulkSendRow } from './bulk-types.ts'
import { errorsText, failedRowsCsv } from './failed-rows.ts'
import { sourceOf } from './job-sources.ts'

const LIMIT = 100

const rowsPage = (id: string, cursor?: string | null) =>
  get<Page<BulkSendRow>>(
    `/v1/bulk_sends/${encodeURIComponent(id)}/rows${query({ status: 'failed', limit: LIMIT, cursor })}`,
  )

/** Every failed row, page after page (at most 10 000). */
async function allFailed(id: string): Promise<BulkSendRow[]> {
  const rows: BulkSendRow[] = []
  for (let page = await rowsPage(id); ; page = await rowsPage(id, page.next_cursor)) {
    rows.push(...page.data)
    if (!page.has_more || !page.next_cursor) return rows
  }
}

function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }))
  const link = document.createElement('a')
  link.href = url
  link.download = name
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}

export function FailedRows(props: { id: string; failed: number; ended: boolean }) {
  const { t, language } = useTexts()
  const [rows, setRows] = useState<BulkSendRow[]>()
  const [next, setNext] = useState<string | null>(null)
  const [error, setError] = useState<ApiFailure>()
  const source = sourceOf(props.id)
  const header = (column: string) => source?.headers[column] ?? column
  // The first page again whenever the count of failed rows moves.
  useEffect(() => {
    let current = true
    rowsPage(props.id).then(
      (page) => {
        if (!current) return
        setRows(page.data)
        setNext(page.has_more ? page.next_cursor : null)
      },
      (failure: unknown) => current && setError(asFailure(failure)),
    )
    return () => {
      current = false
    }
  }, [props.id, props.failed])
  const loadMore = useAction(async () => {
    const page = await rowsPage(props.id, next)
    setRows((known) => [...(known ?? []), ...page.data])
    setNext(page.has_more ? page.next_cursor : null)
  })
  const save = useAction(async () => {
    const failed = await allFailed(props.id)
    download(`${props.id}-failed-rows.csv`, failedRowsCsv(failed, source?.table, header))
  })
  return (
    <section class="panel" aria-labelledby="bulk-failed-title">
      <h2 id="bulk-failed-title">{t.bulk_failed_title}</h2>
      <ErrorNote error={error ?? loadMore.error ?? save.error} />
      {!rows && !error ? <Loading /> : null}
      {rows && rows.length === 0 ? <p class="muted">{t.bulk_failed_none}</p> : null}
      {rows && rows.length > 0 ? (
        <>
          <div class="table-wrap">
            <table class="bulk-failed">
              <caption class="visually-hidden">{t.bulk_failed_title}</caption>
              <thead>
                <tr>
                  <th scope="col">{t.bulk_row}</th>
                  <th scope="col">{t.bulk_reference}</th>
                  <th scope="col">{t.bulk_problem}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.row}>
                    <td data-label={t.bulk_row}>{formatNumber(language, row.row)}</td>
                    <td data-label={t.bulk_reference}>{row.external_id ?? '—'}</td>
                    <td data-label={t.bulk_problem}>{errorsText(row.errors, header)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {next ? (
            <div class="load-more">
              <button type="button" class="button" disabled={loadMore.busy} onClick={() => loadMore.run()}>
                {loadMore.busy ? t.loading : t.load_more}
              </button>
            </div>
          ) : null}
          <div class="bulk-download">
            <button type="button" class="button" disabled={save.busy} onClick={() => save.run()}>
              {save.busy ? t.loading : t.bulk_download_failed}
            </button>
            {source ? null : <p class="muted small">{t.bulk_download_hint_unknown}</p>}
          </div>
        </>
      ) : null}
    </section>
  )
}
