// POST /v1/webhook_endpoints/{id}/rotate_secret — a new secret, shown in this
// answer only; the previous one goes on signing beside it for `expires_in_seconds` (default and
// most 24 hours; 0 ends it at once), so every delivery meanwhile carries two `v1=` and a receiver
// still holding the old secret verifies it (docs/security.md#webhook-signatures). Rotating again
// during an overlap keeps only the secret being replaced as the previous one.
import { Type } from 'typebox'
import { ApiError, orNotFound } from '../errors.ts'
import { IdParams } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { toIso } from '../lib/clock.ts'
import { findEndpoint, lockEndpoint } from './endpoint-store.ts'
import { CreatedWebhookEndpoint, toApiWebhookEndpoint } from './webhook-schemas.ts'
import { newWebhookSecret, sealSecret } from './webhook-secret.ts'

export const MAX_SECRET_OVERLAP_SECONDS = 86_400

const RotateSecretRequest = Type.Object(
  {
    expires_in_seconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_SECRET_OVERLAP_SECONDS,
        description:
          'How long the previous secret keeps signing deliveries: 0 to 86400 seconds, default 86400',
      }),
    ),
  },
  { additionalProperties: false, title: 'RotateWebhookSecretRequest' },
)

export const rotateWebhookSecret = defineRoute({
  operationId: 'rotateWebhookSecret',
  method: 'POST',
  url: '/v1/webhook_endpoints/:id/rotate_secret',
  summary: 'Rotate the signing secret of a webhook endpoint',
  description:
    'Answers the endpoint with its new `secret`, shown once. Until `previous_secret_expires_at`, deliveries are signed with both secrets (one `v1=` each). Send `{}` for the default 24-hour overlap.',
  tag: 'Webhooks',
  // Console: webhook endpoints are an admin's (console contract); editors read them only.
  consoleRole: 'admin',
  schema: { params: IdParams('whk'), body: RotateSecretRequest, response: { 200: CreatedWebhookEndpoint } },
  errors: ['resource_not_found', 'webhook_endpoint_deleted'],
  handler: async ({ params, body, scope }, deps) => {
    const secret = newWebhookSecret()
    const now = deps.clock.now()
    const overlap = body.expires_in_seconds ?? MAX_SECRET_OVERLAP_SECONDS
    const row = await deps.db.transaction().execute(async (tx) => {
      const found = orNotFound(await findEndpoint(tx, scope, params.id), `webhook endpoint ${params.id}`)
      if (found.deleted_at !== null) {
        throw new ApiError('webhook_endpoint_deleted', `Webhook endpoint ${found.id} was deleted.`)
      }
      await lockEndpoint(tx, found.id)
      return tx
        .updateTable('webhook_endpoints')
        .set({
          secret_sealed: sealSecret(deps.keys.webhookSecret, secret),
          previous_secret_sealed: overlap > 0 ? found.secret_sealed : null,
          previous_secret_expires_at: overlap > 0 ? toIso(new Date(now.getTime() + overlap * 1000)) : null,
          updated_at: toIso(now),
        })
        .where('id', '=', found.id)
        .returningAll()
        .executeTakeFirstOrThrow()
    })
    return { ...toApiWebhookEndpoint(row, now), secret }
  },
})
