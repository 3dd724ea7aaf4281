// Request logs: filters (status, route as a log shows it — `POST /v1/submissions`, a concrete path
// or a route —, who made the call: API keys only, the console only, or one key or member chosen by
// name: request-log-caller.tsx), cursor paging; each row names its caller (the key's name and
// prefix, or the member) and opens to show the error envelope the client received.
import { useState } from 'preact/hooks'
import { query } from '../api.ts'
import { formatDateTime } from '../format.ts'
import { IdText } from '../id-text.tsx'
import type { PageProps } from '../routes.tsx'
import { useTexts } from '../texts.ts'
import type { RequestLog } from '../types.ts'
import { Badge, Empty, ErrorNote, Loading, LoadMore, PageHeader, usePaged } from '../ui.tsx'
import { type CallerChoice, CallerSelect } from './request-log-caller.tsx'

interface Filters {
  status: string
  route: string
  source: '' | 'api_key' | 'console'
  key_id: string
  request_id: string
  since: string
}

const EMPTY: Filters = { status: '', route: '', source: '', key_id: '', request_id: '', since: '' }

/** The caller select's value for the filters, and back. */
const choiceOf = (f: Filters): CallerChoice => f.key_id || f.source
const withChoice = (f: Filters, choice: CallerChoice): Filters =>
  choice === 'api_key' || choice === 'console' || choice === ''
    ? { ...f, source: choice, key_id: '' }
    : { ...f, source: '', key_id: choice }

export function RequestLogs({ session }: PageProps) {
  const { t, language } = useTexts()
  const [draft, setDraft] = useState<Filters>(EMPTY)
  const [filters, setFilters] = useState<Filters>(EMPTY)
  const [open, setOpen] = useState<string>()
  const [seen, setSeen] = useState<Record<string, string>>({})
  // <input type=datetime-local> is local time; the API wants an instant.
  const since = filters.since ? new Date(filters.since).toISOString() : ''
  const logs = usePaged<RequestLog>(`/v1/request_logs${query({ ...filters, since, limit: 50 })}`)
  const apply = (next: Filters) => {
    setDraft(next)
    setFilters(next)
  }
  const field = (
    name: 'status' | 'route' | 'request_id' | 'since',
    label: string,
    props: Record<string, string> = {},
  ) => (
    <span class="filter">
      <label for={`log-${name}`}>{label}</label>
      <input
        id={`log-${name}`}
        value={draft[name]}
        {...props}
        onInput={(e) => setDraft({ ...draft, [name]: e.currentTarget.value })}
      />
    </span>
  )
  return (
    <>
      <PageHeader title={t.nav_logs} />
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault()
          setFilters({
            ...draft,
            status: draft.status.trim(),
            route: draft.route.trim(),
            request_id: draft.request_id.trim(),
          })
        }}
      >
        {field('status', t.status, { placeholder: '4xx', size: '5' })}
        {field('route', t.route, { placeholder: 'POST /v1/submissions', size: '30' })}
        <CallerSelect
          value={choiceOf(draft)}
          session={session}
          seen={seen}
          onChange={(choice) => apply(withChoice(draft, choice))}
        />
        {field('request_id', t.request_id, { placeholder: 'req_…' })}
        {field('since', t.since, { type: 'datetime-local' })}
        <button type="submit" class="button">
          {t.apply}
        </button>
      </form>
      <ErrorNote error={logs.error} />
      {!logs.data && !logs.error ? <Loading /> : null}
      {logs.data && logs.data.length === 0 ? (
        <Empty title={t.logs_empty}>
          <p>{filters.route ? t.logs_empty_route : t.logs_empty_hint}</p>
        </Empty>
      ) : null}
      {logs.data && logs.data.length > 0 ? (
        <div class="table-wrap">
          <table class="logs">
            <caption class="visually-hidden">{t.nav_logs}</caption>
            <thead>
              <tr>
                <th scope="col">{t.time}</th>
                <th scope="col">{t.method}</th>
                <th scope="col">{t.path}</th>
                <th scope="col">{t.status}</th>
                <th scope="col">{t.caller}</th>
                <th scope="col">{t.duration}</th>
                <th scope="col">{t.request_id}</th>
                <th scope="col">{t.error_code}</th>
              </tr>
            </thead>
            {logs.data.map((log) => {
              const expanded = open === log.id
              return (
                <tbody key={log.id}>
                  <tr class={log.status >= 400 ? 'row-error' : undefined}>
                    <td data-label={t.time}>{formatDateTime(language, log.time)}</td>
                    <td data-label={t.method}>
                      <code>{log.method}</code>
                    </td>
                    <td class="path" data-label={t.path}>
                      <code>{log.path}</code>
                    </td>
                    <td data-label={t.status}>
                      <span class={`status status-${String(log.status)[0]}xx`}>{log.status}</span>
                    </td>
                    <td class="caller" data-label={t.caller}>
                      <Caller
                        log={log}
                        onFilter={(label) => {
                          setSeen((s) => ({ ...s, [log.key_id]: label }))
                          apply(withChoice(filters, log.key_id))
                        }}
                      />
                    </td>
                    <td class="nowrap" data-label={t.duration}>
                      {Math.round(log.duration_ms)} ms
                    </td>
                    <td class="request-id" data-label={t.request_id}>
                      <IdText id={log.id} short />
                    </td>
                    <td data-label={t.error_code}>
                      {log.error ? (
                        <button
                          type="button"
                          class="button small ghost"
                          aria-expanded={expanded}
                          aria-controls={`log-error-${log.id}`}
                          onClick={() => setOpen(expanded ? undefined : log.id)}
                        >
                          {log.error_code ?? t.error} {expanded ? '▴' : '▾'}
                        </button>
                      ) : (
                        <span class="muted">—</span>
                      )}
                    </td>
                  </tr>
                  {expanded ? (
                    <tr id={`log-error-${log.id}`}>
                      <td colSpan={8}>
                        <pre class="raw">{JSON.stringify(log.error, null, 2)}</pre>
                      </td>
                    </tr>
                  ) : null}
                </tbody>
              )
            })}
          </table>
        </div>
      ) : null}
      <LoadMore paged={logs} />
    </>
  )
}

/** Who made the call: a console member (marked Console) or an API key (its name and prefix); a button filters on it. */
function Caller({ log, onFilter }: { log: RequestLog; onFilter: (label: string) => void }) {
  const { t } = useTexts()
  const label =
    log.source === 'console'
      ? (log.member_email ?? log.key_id)
      : log.key_name
        ? `${log.key_name} (${log.key_prefix}…)`
        : `${log.key_prefix ?? log.key_id}…`
  return (
    <span class="caller-cell">
      {log.source === 'console' ? <Badge tone="info">{t.caller_console_badge}</Badge> : null}
      {/* Named by what it shows (the caller); what it does is its description. */}
      <button type="button" class="link-button" title={t.caller_filter} onClick={() => onFilter(label)}>
        {log.source === 'console' ? (
          label
        ) : log.key_name ? (
          <>
            {log.key_name} <code class="small">{log.key_prefix}…</code>
          </>
        ) : (
          <code class="small">{label}</code>
        )}
      </button>
    </span>
  )
}
