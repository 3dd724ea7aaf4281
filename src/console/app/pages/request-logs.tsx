// Request logs: filters (status, route as a log shows it — `POST /v1/submissions`, a concrete path
// or a route —, who made the call: API keys only, the console only, or one key or member), cursor
// paging; each row names its caller (the key's name and prefix, or the member) and opens to show
// the error envelope the client received.
import { useState } from 'preact/hooks'
import { query } from '../api.ts'
import { formatDateTime } from '../format.ts'
import type { PageProps } from '../routes.tsx'
import { useTexts } from '../texts.ts'
import type { RequestLog } from '../types.ts'
import { Badge, Empty, ErrorNote, Loading, LoadMore, PageHeader, usePaged } from '../ui.tsx'

interface Filters {
  status: string
  route: string
  source: '' | 'api_key' | 'console'
  key_id: string
  request_id: string
  since: string
}

const EMPTY: Filters = { status: '', route: '', source: '', key_id: '', request_id: '', since: '' }

export function RequestLogs(_props: PageProps) {
  const { t, language } = useTexts()
  const [draft, setDraft] = useState<Filters>(EMPTY)
  const [filters, setFilters] = useState<Filters>(EMPTY)
  const [open, setOpen] = useState<string>()
  // <input type=datetime-local> is local time; the API wants an instant.
  const since = filters.since ? new Date(filters.since).toISOString() : ''
  const logs = usePaged<RequestLog>(`/v1/request_logs${query({ ...filters, since, limit: 50 })}`)
  const apply = (next: Filters) => {
    setDraft(next)
    setFilters(next)
  }
  const field = (
    name: 'status' | 'route' | 'key_id' | 'request_id' | 'since',
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
            key_id: draft.key_id.trim(),
            request_id: draft.request_id.trim(),
          })
        }}
      >
        {field('status', t.status, { placeholder: '4xx', size: '5' })}
        {field('route', t.route, { placeholder: 'POST /v1/submissions' })}
        <span class="filter">
          <label for="log-source">{t.caller}</label>
          <select
            id="log-source"
            value={draft.source}
            onChange={(e) => apply({ ...draft, source: e.currentTarget.value as Filters['source'] })}
          >
            <option value="">{t.caller_all}</option>
            <option value="api_key">{t.caller_api_keys}</option>
            <option value="console">{t.caller_console}</option>
          </select>
        </span>
        {field('key_id', t.caller_id, { placeholder: 'key_… / mem_…', size: '14' })}
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
          <p>{t.logs_empty_hint}</p>
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
                    <td class="nowrap">{formatDateTime(language, log.time)}</td>
                    <td>
                      <code>{log.method}</code>
                    </td>
                    <td class="path">
                      <code>{log.path}</code>
                    </td>
                    <td>
                      <span class={`status status-${String(log.status)[0]}xx`}>{log.status}</span>
                    </td>
                    <td class="caller">
                      <Caller log={log} onFilter={() => apply({ ...filters, key_id: log.key_id })} />
                    </td>
                    <td>{Math.round(log.duration_ms)} ms</td>
                    <td>
                      <code class="small">{log.id}</code>
                    </td>
                    <td>
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
function Caller({ log, onFilter }: { log: RequestLog; onFilter: () => void }) {
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
      <button type="button" class="link-button" title={t.caller_filter} onClick={onFilter}>
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
