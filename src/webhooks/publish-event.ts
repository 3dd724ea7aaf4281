// The `events.publish` job (queued by lifecycle/ with each event webhooks may subscribe to): one
// delivery per active endpoint of the event's account and environment subscribed to its type, each
// carrying the body of docs/webhooks.md#the-body — id, type, created_at, data.object (the submission
// as the event's own transaction saw it; `submitter.reminded` adds submitter_id, count and manual) — frozen now, byte for byte, for every attempt. Idempotent: a
// second run finds the deliveries made and adds none. A preview's events make none.
import type { Scope, Tx } from '../db/tables.ts'
import type { Deps } from '../deps.ts'
import { defineJob } from '../jobs/define-job.ts'
import { toIso } from '../lib/clock.ts'
import { publishEventDeclaration } from '../lifecycle/submission-jobs.ts'
import { insertDeliveries } from './delivery-store.ts'
import { subscribedEndpoints } from './endpoint-store.ts'
import type { WebhookEvent } from './webhook-events.ts'

/**
 * `data` is the journal's, written by code typed with the schemas of webhook-events.ts: the
 * submission as `object`, and what the event adds (`submitter.reminded`, `submission.purged`).
 */
export function deliveryBody(event: { id: string; type: string; created_at: string; data: string }): string {
  const { object, ...rest } = JSON.parse(event.data) as WebhookEvent['data']
  const body = {
    id: event.id,
    type: event.type,
    created_at: event.created_at,
    data: { object, ...rest },
  } as WebhookEvent
  return JSON.stringify(body)
}

/** A preview made by the editor sends nothing (docs/console.md#preview-as-a-signer): no deliveries. */
async function isPreview(tx: Tx, scope: Scope, submissionId: string): Promise<boolean> {
  const row = await tx
    .selectFrom('submissions')
    .select('preview')
    .where('id', '=', submissionId)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .executeTakeFirst()
  return row?.preview === 1
}

/** Makes the deliveries of one event; returns how many were new. */
export async function publishEvent(deps: Deps, eventId: string): Promise<number> {
  const made = await deps.db.transaction().execute(async (tx) => {
    const event = await tx.selectFrom('events').selectAll().where('id', '=', eventId).executeTakeFirst()
    if (!event) return 0
    const scope = { accountId: event.account_id, environment: event.environment }
    if (event.submission_id && (await isPreview(tx, scope, event.submission_id))) return 0
    const endpoints = await subscribedEndpoints(tx, scope, event.type)
    const body = deliveryBody(event)
    const at = toIso(deps.clock.now())
    // 25 endpoints at most per account and environment: one statement of at most 25 rows.
    const deliveries = endpoints.map((endpointId) => ({
      id: deps.ids.nextSortable('dlv'),
      account_id: event.account_id,
      environment: event.environment,
      endpoint_id: endpointId,
      event_id: event.id,
      event_type: event.type,
      event_created_at: event.created_at,
      body,
    }))
    return insertDeliveries(tx, deliveries, at)
  })
  if (made > 0) deps.webhookBell.ring()
  return made
}

/** The events.publish job: declared by lifecycle/, which queues it with each submission event. */
export const publishEventJob = defineJob({
  ...publishEventDeclaration,
  handle: async (payload, _job, deps: Deps) => {
    await publishEvent(deps, payload.event_id)
  },
})
