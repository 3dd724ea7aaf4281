// Prometheus metrics (issue #24 item 4, operations.md §9): one registry per process, made by
// createDeps and reached through deps.metrics, so several apps in one test process keep apart. The
// code records where a thing happens; with METRICS_LISTEN unset every call is an empty function.
// The names and labels are a contract: deploy/'s Grafana dashboard reads them (docs/operations.md).
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client'

/** How a webhook delivery attempt ended (webhooks/deliver-once.ts). */
export type WebhookOutcome = 'delivered' | 'failed_attempt' | 'gave_up' | 'dropped'
/** How one run of the `submission.finalize` job ended (submissions/finalize-submission.ts). */
export type FinalizationOutcome = 'completed' | 'retried' | 'failed'
/** How one attempt of a mail job ended (mail/mail-job.ts). */
export type MailOutcome = 'sent' | 'outboxed' | 'failed'

export interface Metrics {
  /** The registry GET /metrics serves; null when metrics are off. */
  readonly registry: Registry | null
  /** One answered HTTP request: `route` is the route's pattern, or `unmatched`. */
  httpRequest(method: string, route: string, status: number, seconds: number): void
  webhookDelivery(outcome: WebhookOutcome): void
  finalization(outcome: FinalizationOutcome, seconds: number): void
  mail(outcome: MailOutcome): void
}

const noop = () => {}

/** METRICS_LISTEN unset: records nothing and costs a call to an empty function. */
export const NO_METRICS: Metrics = {
  registry: null,
  httpRequest: noop,
  webhookDelivery: noop,
  finalization: noop,
  mail: noop,
}

/** 5 ms … 10 s: an API answer is a few ms; a from_html render or a slow PDF URL takes seconds. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
/** A finalization seals every document in a child process: a fraction of a second to minutes. */
const FINALIZATION_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300]

interface HttpChildren {
  count: { inc(): void }
  duration: { observe(value: number): void }
}

/** A registry with the service's metrics and prom-client's default process metrics. */
export function createMetrics(): Metrics & { registry: Registry } {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const labelNames = ['method', 'route', 'status'] as const
  const requests = new Counter({
    name: 'paraph_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern (or "unmatched") and status',
    labelNames,
    registers: [registry],
  })
  const durations = new Histogram({
    name: 'paraph_http_request_duration_seconds',
    help: 'Time from the request received to the response sent, by method, route pattern and status',
    labelNames,
    buckets: HTTP_BUCKETS,
    registers: [registry],
  })
  const webhooks = new Counter({
    name: 'paraph_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome: delivered, failed_attempt (retry scheduled), gave_up (no retry left), dropped (endpoint deleted or disabled)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  })
  const finalizations = new Counter({
    name: 'paraph_finalizations_total',
    help: 'Runs of the submission.finalize job by outcome: completed, retried (will run again), failed (no attempt left)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  })
  const finalizationDurations = new Histogram({
    name: 'paraph_finalization_duration_seconds',
    help: 'Duration of a run of the submission.finalize job (final PDF, audit trail, seal, storage), by outcome',
    labelNames: ['outcome'] as const,
    buckets: FINALIZATION_BUCKETS,
    registers: [registry],
  })
  const mails = new Counter({
    name: 'paraph_mails_total',
    help: 'Mail job attempts by outcome: sent (accepted by the SMTP server), outboxed (kept in the outbox, no SMTP_URL), failed',
    labelNames: ['outcome'] as const,
    registers: [registry],
  })
  // The labelled children by "method route status": prom-client hashes the label object on every
  // call otherwise, which was most of the cost on a request (bench: health, metrics on).
  const children = new Map<string, HttpChildren>()
  return {
    registry,
    httpRequest(method, route, status, seconds) {
      const key = `${method} ${route} ${status}`
      let child = children.get(key)
      if (!child) {
        const labels = { method, route, status: String(status) }
        child = { count: requests.labels(labels), duration: durations.labels(labels) }
        children.set(key, child)
      }
      child.count.inc()
      child.duration.observe(seconds)
    },
    webhookDelivery: (outcome) => webhooks.inc({ outcome }),
    finalization(outcome, seconds) {
      finalizations.inc({ outcome })
      finalizationDurations.observe({ outcome }, seconds)
    },
    mail: (outcome) => mails.inc({ outcome }),
  }
}
