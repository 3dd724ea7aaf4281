// "Send to many", step 3: the dry run's report (docs/api.md#bulk-send "The check") row by row — a
// summary, the rows with their errors under the person's own column names, the rows ready — and
// "Send N" behind a confirmation that says how many mails go out. Long lists are shown a page at a
// time: 10 000 rows drawn at once would freeze a phone.
import { useState } from 'preact/hooks'
import { formatNumber } from '../format.ts'
import { fill, useTexts } from '../texts.ts'
import type { Template } from '../types.ts'
import { Confirm } from '../ui.tsx'
import type { BulkSendCheck } from './bulk-types.ts'
import type { CsvTable } from './csv.ts'
import { columnName, headerFor, type Mapping } from './mapping.ts'
import type { SendOptions } from './mapping-step.tsx'

const PAGE = 50

/** How many signing requests go out at once: every address of the rows sent, or only the first role's in order. */
function mailsNow(table: CsvTable, mapping: Mapping, roles: string[], ready: number[], options: SendOptions) {
  if (!options.sendEmail) return 0
  const mailed = options.order === 'preserved' ? roles.slice(0, 1) : roles
  const columns = mapping.flatMap((c, i) =>
    mailed.some((role) => columnName(c) === `${role}.email`) ? [i] : [],
  )
  let count = 0
  for (const row of ready) {
    for (const i of columns)
      count += (table.rows[row - 1]?.[i] ?? '').split(';').filter((a) => a.trim()).length
  }
  return count
}

function ShowMore(props: { shown: number; total: number; onMore: () => void }) {
  const { t, language } = useTexts()
  if (props.shown >= props.total) return null
  const n = formatNumber(language, Math.min(PAGE, props.total - props.shown))
  return (
    <div class="load-more">
      <span class="muted small">
        {fill(t.bulk_shown, {
          shown: formatNumber(language, props.shown),
          total: formatNumber(language, props.total),
        })}
      </span>{' '}
      <button type="button" class="button" onClick={props.onMore}>
        {fill(t.bulk_show_more, { n })}
      </button>
    </div>
  )
}

export function CheckReport(props: {
  template: Template
  table: CsvTable
  mapping: Mapping
  options: SendOptions
  check: BulkSendCheck
  onSend: () => Promise<unknown>
}) {
  const { t, language } = useTexts()
  const { table, mapping, check } = props
  const [errorsShown, setErrorsShown] = useState(PAGE)
  const [readyShown, setReadyShown] = useState(PAGE)
  const [confirming, setConfirming] = useState(false)
  const failedRows = new Set(check.errors.map((e) => e.row))
  const ready = table.rows.map((_, i) => i + 1).filter((row) => !failedRows.has(row))
  const n = (value: number) => formatNumber(language, value)
  const emailColumns = mapping.flatMap((c, i) => (columnName(c)?.endsWith('.email') ? [i] : []))
  const referenceColumn = mapping.findIndex((c) => columnName(c) === 'external_id')
  const mails = mailsNow(table, mapping, props.template.roles, ready, props.options)
  return (
    <section class="panel bulk-report" aria-labelledby="bulk-report-title">
      <h2 id="bulk-report-title">{t.bulk_report_title}</h2>
      <p class="bulk-summary" role="status">
        {failedRows.size > 0
          ? fill(t.bulk_summary, { ready: n(ready.length), failed: n(failedRows.size) })
          : ready.length === 1
            ? t.bulk_summary_ready_one
            : fill(t.bulk_summary_ready, { ready: n(ready.length) })}
      </p>
      {check.errors.length > 0 ? (
        <>
          <h3>{t.bulk_errors_title}</h3>
          <p class="muted small">{t.bulk_errors_hint}</p>
          <div class="table-wrap">
            <table class="bulk-errors">
              <caption class="visually-hidden">{t.bulk_errors_title}</caption>
              <thead>
                <tr>
                  <th scope="col">{t.bulk_row}</th>
                  <th scope="col">{t.bulk_column}</th>
                  <th scope="col">{t.bulk_problem}</th>
                </tr>
              </thead>
              <tbody>
                {check.errors.slice(0, errorsShown).map((error, i) => (
                  <tr key={i}>
                    <td data-label={t.bulk_row}>{n(error.row)}</td>
                    <td data-label={t.bulk_column}>
                      {error.column ? headerFor(error.column, table, mapping) : '—'}
                    </td>
                    <td data-label={t.bulk_problem}>{error.message.replace(/`([^`]+)`/g, '“$1”')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <ShowMore
            shown={errorsShown}
            total={check.errors.length}
            onMore={() => setErrorsShown((s) => s + PAGE)}
          />
        </>
      ) : null}
      {ready.length > 0 ? (
        <>
          <h3>{t.bulk_ready_title}</h3>
          <div class="table-wrap">
            <table class="bulk-ready">
              <caption class="visually-hidden">{t.bulk_ready_title}</caption>
              <thead>
                <tr>
                  <th scope="col">{t.bulk_row}</th>
                  <th scope="col">{t.bulk_recipients}</th>
                  {referenceColumn >= 0 ? <th scope="col">{t.bulk_reference}</th> : null}
                </tr>
              </thead>
              <tbody>
                {ready.slice(0, readyShown).map((row) => {
                  const cells = table.rows[row - 1]!
                  return (
                    <tr key={row}>
                      <td data-label={t.bulk_row}>{n(row)}</td>
                      <td data-label={t.bulk_recipients} class="bulk-recipients">
                        {emailColumns.map((i) => cells[i]).join(', ')}
                      </td>
                      {referenceColumn >= 0 ? (
                        <td data-label={t.bulk_reference}>{cells[referenceColumn] || '—'}</td>
                      ) : null}
                    </tr>
                  )
                })}
              </tbody>
            </table>
          </div>
          <ShowMore shown={readyShown} total={ready.length} onMore={() => setReadyShown((s) => s + PAGE)} />
          <div class="send-actions">
            <button type="button" class="button primary" onClick={() => setConfirming(true)}>
              {fill(t.bulk_send_n, { n: n(ready.length) })}
            </button>
          </div>
        </>
      ) : null}
      {confirming ? (
        <Confirm
          title={fill(t.bulk_confirm_title, { n: n(ready.length) })}
          body={
            <>
              <p>
                {!props.options.sendEmail
                  ? t.bulk_confirm_no_mail
                  : fill(
                      props.options.order === 'preserved' && props.template.roles.length > 1
                        ? t.bulk_confirm_mails
                        : t.bulk_confirm_mails_all,
                      { n: n(mails) },
                    )}
              </p>
              {failedRows.size === 1 ? <p>{t.bulk_confirm_skipped_one}</p> : null}
              {failedRows.size > 1 ? <p>{fill(t.bulk_confirm_skipped, { n: n(failedRows.size) })}</p> : null}
            </>
          }
          confirm={fill(t.bulk_confirm, { n: n(ready.length) })}
          onClose={() => setConfirming(false)}
          onConfirm={props.onSend}
        />
      ) : null}
    </section>
  )
}
