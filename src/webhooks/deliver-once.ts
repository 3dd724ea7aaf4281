// One attempt of one claimed delivery: sign the frozen body with a fresh `t`, POST it, then record
// in one transaction the attempt, the delivery's next state (fenced by the attempt number) and the
// endpoint's health — with the owner's notice when it becomes failing and the endpoint's pending
// deliveries dropped when it becomes disabled. A test event's delivery (`test`) counts for health
// only as the test route says: a success re-enables, a failure changes nothing.
import type { Tx, WebhookDeliveriesTable, WebhookEndpointsTable } from '../db/tables.ts'
import type { Deps } from '../deps.ts'
import { toIso } from '../lib/clock.ts'
import { dropPendingDeliveries, insertAttempt, settleDelivery } from './delivery-store.ts'
import { afterFailure, afterSuccess, afterTestSuccess } from './endpoint-health.ts'
import { lockEndpoint, recordSuccessHealth, updateHealth } from './endpoint-store.ts'
import { queueFailingNotice } from './failing-notice.ts'
import { nextAttemptAt } from './retry-schedule.ts'
import { type SendResult, sendWebhook } from './send-webhook.ts'
import { signingSecrets } from './webhook-secret.ts'
import { signatureHeader } from './webhook-signature.ts'

export type DeliveryDeps = Pick<
  Deps,
  | 'db'
  | 'clock'
  | 'ids'
  | 'logger'
  | 'config'
  | 'keys'
  | 'resolve'
  | 'webhookTimeoutMs'
  | 'trustedCa'
  | 'webhookAgent'
  | 'metrics'
>

/** Signs and POSTs `body` to the endpoint now (deliveries and the test endpoint). */
export function postSigned(deps: DeliveryDeps, endpoint: WebhookEndpointsTable, body: string) {
  const now = deps.clock.now()
  const secrets = signingSecrets(deps.keys.webhookSecret, endpoint, now)
  const signature = signatureHeader(secrets, Math.floor(now.getTime() / 1000), body)
  return sendWebhook(endpoint.url, body, signature, {
    allowPrivateNetwork: deps.config.allowPrivateNetworkUrls,
    timeoutMs: deps.webhookTimeoutMs,
    resolve: deps.resolve,
    agent: deps.webhookAgent,
    ...(deps.trustedCa ? { ca: deps.trustedCa } : {}),
  })
}

/** What an attempt left: whether the endpoint is now failing (the dispatcher then slows it down). */
export interface AttemptOutcome {
  failing: boolean
}

/**
 * Runs attempt `delivery.attempts` of a delivery this process has claimed, to its endpoint as read
 * just after the claim.
 */
export async function deliverOnce(
  deps: DeliveryDeps,
  delivery: WebhookDeliveriesTable,
  endpoint: WebhookEndpointsTable,
): Promise<AttemptOutcome> {
  if (endpoint.deleted_at !== null || endpoint.disabled_at !== null) {
    const reason = endpoint.deleted_at ? 'endpoint deleted' : 'endpoint disabled'
    await deps.db.transaction().execute((tx) => dropOne(tx, delivery, reason, toIso(deps.clock.now())))
    deps.metrics.webhookDelivery('dropped')
    return { failing: false }
  }
  // A test event's delivery left pending by a crash is sent once more, never on the schedule.
  return (await sendAndRecord(deps, delivery, endpoint, { scheduleRetry: delivery.test === 0 })).outcome
}

/** Sends the claimed attempt and records it (the dispatcher, and the retry route on any live endpoint). */
export async function sendAndRecord(
  deps: DeliveryDeps,
  delivery: WebhookDeliveriesTable,
  endpoint: WebhookEndpointsTable,
  options: { scheduleRetry: boolean },
): Promise<{ result: SendResult; outcome: AttemptOutcome }> {
  const startedAt = toIso(deps.clock.now())
  const result = await postSigned(deps, endpoint, delivery.body)
  const { state, ...outcome } = await deps.db
    .transaction()
    .execute((tx) => record(tx, deps, delivery, startedAt, result, options.scheduleRetry))
  // After the commit: the attempt is recorded. `failed` is the delivery's end (no retry left).
  // A test event's delivery is the developer's own check, not traffic: the metrics leave it out.
  if (delivery.test === 0)
    deps.metrics.webhookDelivery(
      state === 'delivered' ? 'delivered' : state === 'pending' ? 'failed_attempt' : 'gave_up',
    )
  return { result, outcome }
}

async function dropOne(tx: Tx, delivery: WebhookDeliveriesTable, reason: string, at: string) {
  await settleDelivery(
    tx,
    delivery.id,
    delivery.attempts,
    { state: 'dropped', last_status: null, last_error: reason },
    at,
  )
}

async function record(
  tx: Tx,
  deps: DeliveryDeps,
  delivery: WebhookDeliveriesTable,
  startedAt: string,
  result: SendResult,
  scheduleRetry: boolean,
): Promise<AttemptOutcome & { state: 'delivered' | 'pending' | 'failed' }> {
  const now = deps.clock.now()
  const at = toIso(now)
  await insertAttempt(tx, delivery.id, {
    number: delivery.attempts,
    endpointId: delivery.endpoint_id,
    startedAt,
    durationMs: result.durationMs,
    status: result.status,
    error: result.error,
    succeeded: result.ok,
    responseBody: result.body,
  })
  const retryAt =
    result.ok || !scheduleRetry
      ? null
      : nextAttemptAt(delivery.event_created_at, delivery.attempts, deps.config.webhookRetrySchedule, now)
  const state = result.ok ? 'delivered' : retryAt ? 'pending' : 'failed'
  const settled = await settleDelivery(
    tx,
    delivery.id,
    delivery.attempts,
    {
      state,
      ...(retryAt ? { next_attempt_at: toIso(retryAt) } : {}),
      last_status: result.status,
      last_error: result.error,
    },
    at,
  )
  if (!settled)
    deps.logger.warn({ delivery_id: delivery.id }, 'webhook attempt recorded after its delivery moved on')
  if (delivery.test === 1) return testHealth(tx, delivery.endpoint_id, result, now, state)
  // A success ends any run of failures whatever the row says: one UPDATE, no read.
  if (result.ok) {
    await recordSuccessHealth(tx, delivery.endpoint_id, afterSuccess(result.status as number, now).set, at)
    return { failing: false, state }
  }
  const endpoint = await lockEndpoint(tx, delivery.endpoint_id)
  if (!endpoint) return { failing: false, state }
  const change = afterFailure(endpoint, result.error ?? 'failed', now)
  const updated = await updateHealth(tx, endpoint.id, change.set, at)
  if (change.becameFailing) await queueFailingNotice(tx, deps, updated)
  if (change.becameDisabled) await dropPendingDeliveries(tx, endpoint.id, 'endpoint disabled', at)
  return { failing: updated.failing === 1, state }
}

/**
 * A test event's attempt (docs/api.md#testing-an-endpoint): a 2xx clears `failing` and lifts the
 * disabling; a failure changes nothing in the endpoint's health.
 */
async function testHealth(
  tx: Tx,
  endpointId: string,
  result: SendResult,
  now: Date,
  state: 'delivered' | 'pending' | 'failed',
): Promise<AttemptOutcome & { state: 'delivered' | 'pending' | 'failed' }> {
  if (!result.ok) return { failing: false, state }
  if (await lockEndpoint(tx, endpointId)) {
    await updateHealth(tx, endpointId, afterTestSuccess(result.status as number, now).set, toIso(now))
  }
  return { failing: false, state }
}
