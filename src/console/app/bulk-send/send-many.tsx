// "Send to many" (docs/console.md#send-to-many): one template sent to every row of a CSV list —
// the list read in the browser (csv-input.tsx), its columns mapped to the template's roles and
// fields (mapping-step.tsx), checked by a dry run of POST /v1/bulk_sends (check-report.tsx), then
// sent; the job is followed on its own page (job-page.tsx). Loaded lazily: the CSV parser weighs
// nothing on the console's first load.
import { useMemo, useRef, useState } from 'preact/hooks'
import { call, newIdempotencyKey } from '../api.ts'
import { formatNumber } from '../format.ts'
import { navigate } from '../router.ts'
import type { PageProps } from '../routes.tsx'
import { Link } from '../shell.tsx'
import { fill, useTexts } from '../texts.ts'
import type { Template } from '../types.ts'
import { Empty, ErrorNote, Loading, PageHeader, useAction, useGet, useToast } from '../ui.tsx'
import type { BulkSend, BulkSendCheck } from './bulk-types.ts'
import { CheckReport } from './check-report.tsx'
import { CsvInput, type ReadList } from './csv-input.tsx'
import { keepSource } from './job-sources.ts'
import { columnName, guessMapping, type Mapping, mappingProblems, rewriteCsv } from './mapping.ts'
import { MappingStep, type SendOptions } from './mapping-step.tsx'

export function SendMany({ params }: PageProps) {
  const { t } = useTexts()
  const template = useGet<Template>(`/v1/templates/${encodeURIComponent(params.id!)}`)
  const tpl = template.data
  return (
    <>
      <p class="breadcrumb">
        <Link to="/templates">← {t.nav_templates}</Link>
      </p>
      <PageHeader title={tpl ? fill(t.bulk_title, { name: tpl.name }) : t.bulk_send} />
      <ErrorNote error={template.error} />
      {!tpl && !template.error ? <Loading /> : null}
      {tpl && tpl.status !== 'active' ? <Empty title={t.send_archived} /> : null}
      {tpl && tpl.status === 'active' ? <BulkFlow template={tpl} /> : null}
    </>
  )
}

/** The body of POST /v1/bulk_sends for this list, mapping and options. */
function requestOf(template: Template, list: ReadList, mapping: Mapping, options: SendOptions) {
  return {
    template_id: template.id,
    csv: rewriteCsv(list.table, mapping),
    send_email: options.sendEmail,
    signing_order: options.order,
  }
}

/** API column → the person's header, for the job page's errors. */
function headersOf(list: ReadList, mapping: Mapping): Record<string, string> {
  const headers: Record<string, string> = {}
  mapping.forEach((choice, i) => {
    const name = columnName(choice)
    if (name !== null) headers[name] = list.table.header[i]!
  })
  return headers
}

/**
 * Sends a checked request. One Idempotency-Key per confirmed send: a click retried after a lost
 * answer (the same body) reuses it, so the API makes one job; a new body gets a new key.
 */
function useSend(template: Template, list: ReadList | undefined, mapping: Mapping) {
  const { t, language } = useTexts()
  const toast = useToast()
  const attempt = useRef<{ body: string; key: string } | undefined>(undefined)
  return async (request: object) => {
    const body = JSON.stringify(request)
    if (attempt.current?.body !== body) attempt.current = { body, key: newIdempotencyKey() }
    const job = await call<BulkSend>('POST', '/v1/bulk_sends', request, {
      idempotencyKey: attempt.current.key,
    })
    attempt.current = undefined
    if (list) keepSource(job.id, { table: list.table, headers: headersOf(list, mapping) })
    toast(fill(t.bulk_started, { n: formatNumber(language, job.counts.pending) }))
    navigate(`/bulk-sends/${job.id}?template=${template.id}`)
  }
}

function BulkFlow({ template }: { template: Template }) {
  const { t, language } = useTexts()
  const [list, setList] = useState<ReadList>()
  const [mapping, setMapping] = useState<Mapping>([])
  const [options, setOptions] = useState<SendOptions>({ sendEmail: true, order: 'preserved' })
  const [checked, setChecked] = useState<{ body: string; report: BulkSendCheck }>()
  // 10 000 rows written again and serialized: once per change, not on every render.
  const { request, body } = useMemo(() => {
    const made = list ? requestOf(template, list, mapping, options) : undefined
    return { request: made, body: made ? JSON.stringify(made) : '' }
  }, [template, list, mapping, options])
  const check = useAction((req: object) =>
    call<BulkSendCheck>('POST', '/v1/bulk_sends', { ...req, dry_run: true }),
  )
  const send = useSend(template, list, mapping)
  const stale = checked !== undefined && checked.body !== body
  return (
    <div class="bulk-flow send-form">
      <p class="muted">{t.bulk_intro}</p>
      {list ? (
        <section class="panel bulk-input" aria-labelledby="bulk-list-title">
          <h2 id="bulk-list-title">{t.bulk_list_title}</h2>
          <p>
            {fill(list.table.rows.length === 1 ? t.bulk_file_read_one : t.bulk_file_read, {
              source: list.source ?? t.bulk_pasted_source,
              rows: formatNumber(language, list.table.rows.length),
              columns: formatNumber(language, list.table.header.length),
            })}
          </p>
          <button
            type="button"
            class="button"
            onClick={() => {
              setList(undefined)
              setChecked(undefined)
              check.clear()
            }}
          >
            {t.bulk_other_list}
          </button>
        </section>
      ) : (
        <CsvInput
          onRead={(read) => {
            setList(read)
            setMapping(guessMapping(read.table.header, template))
            setChecked(undefined)
          }}
        />
      )}
      {list && request ? (
        <MappingStep
          template={template}
          table={list.table}
          mapping={mapping}
          problems={mappingProblems(mapping, template)}
          onChoice={(column, choice) => setMapping((m) => m.map((c, i) => (i === column ? choice : c)))}
          options={options}
          onOptions={setOptions}
          checking={check.busy}
          onCheck={async () => {
            const done = await check.run(request)
            if (done) setChecked({ body, report: done.value })
          }}
        />
      ) : null}
      <ErrorNote error={check.error} />
      {stale ? <p class="warning">{t.bulk_change_after_check}</p> : null}
      {list && request && checked && !stale ? (
        <CheckReport
          template={template}
          table={list.table}
          mapping={mapping}
          options={options}
          check={checked.report}
          onSend={() => send(request)}
        />
      ) : null}
    </div>
  )
}
