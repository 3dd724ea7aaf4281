// Webhook endpoints: list with health, create (URL + events; the signing secret shown once). An
// editor sees them read-only (console contract: webhook writes are admin).
import { useState } from 'preact/hooks'
import { type Page, post } from '../api.ts'
import { formatDateTime } from '../format.ts'
import type { PageProps } from '../routes.tsx'
import { Link } from '../shell.tsx'
import { useTexts } from '../texts.ts'
import { type CreatedWebhookEndpoint, WEBHOOK_EVENTS, type WebhookEndpoint } from '../types.ts'
import { Dialog, Empty, ErrorNote, Loading, PageHeader, SecretDialog, useAction, useGet } from '../ui.tsx'
import { HealthBadge } from './webhook-health.tsx'

export function Webhooks({ session }: PageProps) {
  const { t, language } = useTexts()
  const endpoints = useGet<Page<WebhookEndpoint>>('/v1/webhook_endpoints?limit=100')
  const [creating, setCreating] = useState(false)
  const [created, setCreated] = useState<CreatedWebhookEndpoint>()
  const admin = session.member.role === 'admin'
  return (
    <>
      <PageHeader title={t.nav_webhooks}>
        {admin ? (
          <button type="button" class="button primary" onClick={() => setCreating(true)}>
            {t.add_endpoint}
          </button>
        ) : null}
      </PageHeader>
      {admin ? null : <p class="muted">{t.read_only_editor}</p>}
      <ErrorNote error={endpoints.error} />
      {!endpoints.data && !endpoints.error ? <Loading /> : null}
      {endpoints.data && endpoints.data.data.length === 0 ? (
        <Empty title={t.webhooks_empty}>
          <p>{t.webhooks_empty_hint}</p>
        </Empty>
      ) : null}
      {endpoints.data && endpoints.data.data.length > 0 ? (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">{t.nav_webhooks}</caption>
            <thead>
              <tr>
                <th scope="col">{t.url}</th>
                <th scope="col">{t.events}</th>
                <th scope="col">{t.health}</th>
                <th scope="col">{t.created}</th>
              </tr>
            </thead>
            <tbody>
              {endpoints.data.data.map((endpoint) => (
                <tr key={endpoint.id}>
                  <td data-label={t.url}>
                    <Link to={`/developers/webhooks/${endpoint.id}`}>{endpoint.url}</Link>
                  </td>
                  <td data-label={t.events}>
                    {endpoint.events.length === WEBHOOK_EVENTS.length
                      ? t.all_events
                      : endpoint.events.join(', ')}
                  </td>
                  <td data-label={t.health}>
                    <HealthBadge endpoint={endpoint} />
                  </td>
                  <td data-label={t.created}>{formatDateTime(language, endpoint.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {creating ? (
        <CreateEndpoint
          onClose={() => setCreating(false)}
          onCreated={(endpoint) => {
            setCreating(false)
            setCreated(endpoint)
            endpoints.reload()
          }}
        />
      ) : null}
      {created?.secret ? (
        <SecretDialog
          title={t.endpoint_created}
          secret={created.secret}
          onClose={() => setCreated(undefined)}
        />
      ) : null}
    </>
  )
}

function CreateEndpoint(props: { onClose: () => void; onCreated: (e: CreatedWebhookEndpoint) => void }) {
  const { t } = useTexts()
  const [url, setUrl] = useState('')
  const [events, setEvents] = useState<string[]>([...WEBHOOK_EVENTS])
  const create = useAction(() =>
    post<CreatedWebhookEndpoint>('/v1/webhook_endpoints', { url: url.trim(), events }),
  )
  return (
    <Dialog title={t.add_endpoint} onClose={props.onClose} wide>
      <form
        onSubmit={async (e) => {
          e.preventDefault()
          const done = await create.run()
          if (done) props.onCreated(done.value)
        }}
      >
        <label for="endpoint-url">{t.url}</label>
        <input
          id="endpoint-url"
          type="url"
          required
          placeholder="https://example.com/paraph-webhooks"
          value={url}
          onInput={(e) => setUrl(e.currentTarget.value)}
        />
        <fieldset class="checkboxes">
          <legend>{t.events}</legend>
          {WEBHOOK_EVENTS.map((event) => (
            <label key={event} class="checkbox">
              <input
                type="checkbox"
                checked={events.includes(event)}
                onChange={(e) =>
                  setEvents((list) =>
                    e.currentTarget.checked ? [...list, event] : list.filter((x) => x !== event),
                  )
                }
              />
              <code>{event}</code>
            </label>
          ))}
        </fieldset>
        <ErrorNote error={create.error} />
        <div class="dialog-actions">
          <button type="button" class="button" onClick={props.onClose}>
            {t.cancel}
          </button>
          <button type="submit" class="button primary" disabled={create.busy || events.length === 0}>
            {t.create}
          </button>
        </div>
      </form>
    </Dialog>
  )
}
