// One webhook endpoint: its events and health, a test event (with the receiver's raw answer; it is
// listed among the deliveries, marked Test), the delivery history — each delivery a row with its
// Redeliver button and a Details button opening every attempt —, secret rotation (shown once) and
// deletion. A redelivery is made at once (POST …/retry answers with its attempt): the row and the
// endpoint's health (Last success, Last failure) are read again after it.
import { useState } from 'preact/hooks'
import { call, post, query } from '../api.ts'
import { formatDateTime } from '../format.ts'
import { navigate } from '../router.ts'
import type { PageProps } from '../routes.tsx'
import { Link } from '../shell.tsx'
import { fill, useTexts } from '../texts.ts'
import type { CreatedWebhookEndpoint, WebhookDelivery, WebhookEndpoint, WebhookTestResult } from '../types.ts'
import {
  Badge,
  Confirm,
  ErrorNote,
  Loading,
  LoadMore,
  PageHeader,
  SecretDialog,
  useAction,
  useGet,
  usePaged,
  useToast,
} from '../ui.tsx'
import { HealthBadge } from './webhook-health.tsx'

const DELIVERY_TONES: Record<WebhookDelivery['status'], string> = {
  pending: 'info',
  delivered: 'success',
  failed: 'danger',
  dropped: 'neutral',
}

export function WebhookDetail({ params, session }: PageProps) {
  const { t, language } = useTexts()
  const toast = useToast()
  const id = encodeURIComponent(params.id!)
  const endpoint = useGet<WebhookEndpoint>(`/v1/webhook_endpoints/${id}`)
  const deliveries = usePaged<WebhookDelivery>(
    `/v1/webhook_endpoints/${id}/deliveries${query({ limit: 20 })}`,
  )
  const [secret, setSecret] = useState<string>()
  const [confirm, setConfirm] = useState<'rotate' | 'delete'>()
  const test = useAction(() => post<WebhookTestResult>(`/v1/webhook_endpoints/${id}/test`))
  const [testResult, setTestResult] = useState<WebhookTestResult>()
  const admin = session.member.role === 'admin'
  const e = endpoint.data
  return (
    <>
      <p class="breadcrumb">
        <Link to="/developers/webhooks">← {t.nav_webhooks}</Link>
      </p>
      <PageHeader title={t.endpoint}>
        {admin && e?.active ? (
          <>
            <button
              type="button"
              class="button"
              disabled={test.busy}
              onClick={async () => {
                const done = await test.run()
                if (done) {
                  setTestResult(done.value)
                  deliveries.reload()
                  endpoint.reload()
                }
              }}
            >
              {test.busy ? t.sending : t.send_test}
            </button>
            <button type="button" class="button" onClick={() => setConfirm('rotate')}>
              {t.rotate_secret}
            </button>
            <button type="button" class="button danger" onClick={() => setConfirm('delete')}>
              {t.delete}
            </button>
          </>
        ) : null}
      </PageHeader>
      {admin ? null : <p class="muted">{t.read_only_editor}</p>}
      <ErrorNote error={endpoint.error} />
      <ErrorNote error={test.error} />
      {!e && !endpoint.error ? <Loading /> : null}
      {e ? (
        <dl class="facts">
          <div class="wide">
            <dt>{t.url}</dt>
            <dd>
              <code>{e.url}</code>
            </dd>
          </div>
          <div>
            <dt>{t.health}</dt>
            <dd>
              <HealthBadge endpoint={e} />
            </dd>
          </div>
          <div>
            <dt>{t.last_success}</dt>
            <dd>{formatDateTime(language, e.health.last_success_at)}</dd>
          </div>
          <div>
            <dt>{t.last_failure}</dt>
            <dd>
              {formatDateTime(language, e.health.last_failure_at)}
              {e.health.last_failure_reason ? (
                <span class="muted"> · {e.health.last_failure_reason}</span>
              ) : null}
            </dd>
          </div>
          <div class="wide">
            <dt>{t.events}</dt>
            <dd>
              {e.events.map((event) => (
                <code key={event} class="tag">
                  {event}
                </code>
              ))}
            </dd>
          </div>
        </dl>
      ) : null}
      {testResult ? <TestResult result={testResult} /> : null}
      <section class="panel" aria-labelledby="deliveries-title">
        <h2 id="deliveries-title">{t.deliveries}</h2>
        <ErrorNote error={deliveries.error} />
        {!deliveries.data && !deliveries.error ? <Loading /> : null}
        {deliveries.data && deliveries.data.length === 0 ? <p class="muted">{t.deliveries_empty}</p> : null}
        {deliveries.data?.map((delivery) => (
          <Delivery
            key={delivery.id}
            delivery={delivery}
            endpointId={id}
            endpointUrl={e?.url ?? ''}
            canRetry={admin && Boolean(e?.active)}
            onRetried={(done) => {
              toast(done.status === 'delivered' ? t.redelivery_delivered : t.redelivery_failed)
              deliveries.reload()
              endpoint.reload()
            }}
          />
        ))}
        <LoadMore paged={deliveries} />
      </section>
      {confirm === 'rotate' ? (
        <Confirm
          title={t.rotate_secret}
          body={<p>{t.rotate_secret_body}</p>}
          confirm={t.rotate_secret}
          onClose={() => setConfirm(undefined)}
          onConfirm={async () => {
            const rotated = await post<CreatedWebhookEndpoint>(
              `/v1/webhook_endpoints/${id}/rotate_secret`,
              {},
            )
            setSecret(rotated.secret)
            endpoint.reload()
            return true
          }}
        />
      ) : null}
      {confirm === 'delete' && e ? (
        <Confirm
          title={t.delete_endpoint_title}
          body={<p>{fill(t.delete_endpoint_body, { url: e.url })}</p>}
          confirm={t.delete}
          danger
          onClose={() => setConfirm(undefined)}
          onConfirm={async () => {
            await call('DELETE', `/v1/webhook_endpoints/${id}`)
            toast(t.endpoint_deleted)
            navigate('/developers/webhooks')
            return true
          }}
        />
      ) : null}
      {secret ? (
        <SecretDialog title={t.new_secret} secret={secret} onClose={() => setSecret(undefined)} />
      ) : null}
    </>
  )
}

function TestResult({ result }: { result: WebhookTestResult }) {
  const { t } = useTexts()
  const headers = Object.entries(result.response.headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n')
  return (
    <section class="panel" aria-labelledby="test-title">
      <h2 id="test-title">{t.test_result}</h2>
      <p>
        {result.delivered ? (
          <Badge tone="success">{t.test_delivered}</Badge>
        ) : (
          <Badge tone="danger">{t.test_failed}</Badge>
        )}{' '}
        <span class="muted">
          {result.response.status === null ? t.no_answer : `HTTP ${result.response.status}`} ·{' '}
          {result.duration_ms} ms
        </span>
      </p>
      {result.error ? <p class="error-note">{result.error}</p> : null}
      <p class="small muted">{t.receiver_answer}</p>
      <pre class="raw">
        {`${result.response.status === null ? '' : `HTTP ${result.response.status}\n`}${headers}\n\n${result.response.body}`}
      </pre>
    </section>
  )
}

/** A JSON body indented for reading; any other text as it came. */
function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2)
  } catch {
    return body
  }
}

function Delivery(props: {
  delivery: WebhookDelivery
  endpointId: string
  endpointUrl: string
  canRetry: boolean
  onRetried: (delivery: WebhookDelivery) => void
}) {
  const { t, language } = useTexts()
  const { delivery } = props
  const [open, setOpen] = useState(false)
  const retry = useAction(() =>
    post<WebhookDelivery>(`/v1/webhook_endpoints/${props.endpointId}/deliveries/${delivery.id}/retry`),
  )
  const bodyId = `delivery-${delivery.id}`
  return (
    <div class="delivery">
      <div class="delivery-row">
        <button
          type="button"
          class="delivery-toggle"
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={() => setOpen(!open)}
        >
          <span class="delivery-marker" aria-hidden="true">
            {open ? '▾' : '▸'}
          </span>
          {t.delivery_details}
          <span class="visually-hidden">
            {' '}
            {fill(t.delivery_of, {
              event: delivery.event_type,
              date: formatDateTime(language, delivery.created_at),
            })}
          </span>
        </button>
        <code>{delivery.event_type}</code>
        {delivery.test ? <Badge tone="neutral">{t.delivery_test}</Badge> : null}
        <Badge tone={DELIVERY_TONES[delivery.status]}>{t[`delivery_${delivery.status}`]}</Badge>
        <span class="muted">
          {formatDateTime(language, delivery.created_at)} ·{' '}
          {fill(
            new Intl.PluralRules(language).select(delivery.attempts.length) === 'one'
              ? t.attempts_one
              : t.attempts_other,
            { n: delivery.attempts.length },
          )}
        </span>
        {props.canRetry && delivery.status !== 'pending' ? (
          <button
            type="button"
            class="button small delivery-redeliver"
            aria-label={fill(t.redeliver_label, {
              event: delivery.event_type,
              date: formatDateTime(language, delivery.created_at),
            })}
            disabled={retry.busy}
            onClick={async () => {
              const done = await retry.run()
              if (done) props.onRetried(done.value)
            }}
          >
            {retry.busy ? t.sending : t.redeliver}
          </button>
        ) : null}
      </div>
      <ErrorNote error={retry.error} />
      <div class="delivery-body" id={bodyId} hidden={!open}>
        <p class="muted small">
          {t.event} <code>{delivery.event_id}</code> · {t.delivery} <code>{delivery.id}</code>
          {delivery.next_attempt_at
            ? ` · ${fill(t.next_attempt, { date: formatDateTime(language, delivery.next_attempt_at) })}`
            : ''}
        </p>
        {delivery.last_error ? <p class="error-note">{delivery.last_error}</p> : null}
        <details class="delivery-request">
          <summary>{t.request_sent}</summary>
          <pre class="raw">{`POST ${props.endpointUrl}\n\n${pretty(delivery.request_body)}`}</pre>
        </details>
        <table class="compact">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">{t.time}</th>
              <th scope="col">{t.answer}</th>
              <th scope="col">{t.duration}</th>
            </tr>
          </thead>
          <tbody>
            {delivery.attempts.map((a) => (
              <tr key={a.number}>
                <td>{a.number}</td>
                <td>{formatDateTime(language, a.at)}</td>
                <td>
                  {a.status === null ? <span class="muted">{t.no_answer}</span> : `HTTP ${a.status}`}
                  {/* The error repeats the status for a non-2xx answer: shown only when it says more. */}
                  {a.error && a.error !== `HTTP ${a.status}` ? (
                    <span class="error-text"> · {a.error}</span>
                  ) : null}
                  {a.response_body !== null ? (
                    <details class="attempt-answer">
                      <summary>{t.show_answer}</summary>
                      {a.response_body ? (
                        <pre class="raw">{a.response_body}</pre>
                      ) : (
                        <p class="muted small">{t.empty_answer}</p>
                      )}
                    </details>
                  ) : null}
                </td>
                <td>{a.duration_ms} ms</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  )
}
