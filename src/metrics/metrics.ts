// Prometheus metrics (docs/operations.md#metrics): one registry per process, made by
// createDeps and reached through deps.metrics, so several apps in one test process keep apart. The
// code records where a thing happens; with METRICS_LISTEN unset every call is an empty function.
// The names and labels are a contract: deploy/'s Grafana dashboard reads them (docs/operations.md).
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client'
import { RequestSeries } from './request-series.ts'

/** How a webhook delivery attempt ended (webhooks/deliver-once.ts). */
export type WebhookOutcome = 'delivered' | 'failed_attempt' | 'gave_up' | 'dropped'
/** How one run of the `submission.finalize` job ended (submissions/finalize-submission.ts). */
export type FinalizationOutcome = 'completed' | 'retried' | 'failed'
/** How one attempt of a mail job ended (mail/mail-job.ts). */
export type MailOutcome = 'sent' | 'outboxed' | 'failed'
/** Why a submission was purged (privacy/purge.ts): a request, its retention policy, an erasure. */
export type PurgeCause = 'request' | 'policy' | 'erasure'

export interface Metrics {
  /** The registry GET /metrics serves; null when metrics are off. */
  readonly registry: Registry | null
  /** One answered HTTP request: `route` is the route's pattern, or `unmatched`. */
  httpRequest(method: string, route: string, status: number, seconds: number): void
  webhookDelivery(outcome: WebhookOutcome): void
  finalization(outcome: FinalizationOutcome, seconds: number): void
  mail(outcome: MailOutcome): void
  /** One submission purged (docs/privacy.md#purge), with the blobs it deleted. */
  purge(cause: PurgeCause, blobs: number): void
}

const noop = () => {}

/** METRICS_LISTEN unset: records nothing and costs a call to an empty function. */
export const NO_METRICS: Metrics = {
  registry: null,
  httpRequest: noop,
  webhookDelivery: noop,
  finalization: noop,
  mail: noop,
  purge: noop,
}

/** A finalization seals every document in a child process: a fraction of a second to minutes. */
const FINALIZATION_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300]

/** A registry with the service's metrics and prom-client's default process metrics. */
export function createMetrics(): Metrics & { registry: Registry } {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const requests = new RequestSeries(registry)
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
  const purges = new Counter({
    name: 'paraph_purges_total',
    help: 'Submissions purged (documents and personal data deleted) by cause: request (POST …/purge), policy (the retention policy), erasure (a data subject’s request)',
    labelNames: ['cause'] as const,
    registers: [registry],
  })
  const purgedBlobs = new Counter({
    name: 'paraph_purged_blobs_total',
    help: 'Stored files deleted by purges (documents, final PDFs, audit trails, page images, signature images)',
    registers: [registry],
  })
  return {
    registry,
    httpRequest: (method, route, status, seconds) => requests.record(method, route, status, seconds),
    webhookDelivery: (outcome) => webhooks.inc({ outcome }),
    finalization(outcome, seconds) {
      finalizations.inc({ outcome })
      finalizationDurations.observe({ outcome }, seconds)
    },
    mail: (outcome) => mails.inc({ outcome }),
    purge(cause, blobs) {
      purges.inc({ cause })
      purgedBlobs.inc(blobs)
    },
  }
}
