// Queues the one mail to the account owner when an endpoint becomes failing, in the transaction
// that records the failure: through the mail outbox like every mail, never lost, never twice for
// one run of failures (endpoint-health decides when).
import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../config.ts'
import type { Tx, WebhookEndpointsTable } from '../db/tables.ts'
import type { Clock } from '../lib/clock.ts'
import type { IdGenerator } from '../lib/ids.ts'
import { enqueueMail, type MailMessage } from '../mail/mail-job.ts'
import { mailTexts } from '../mail/messages/texts.ts'
import { renderWebhookFailing } from '../mail/messages/webhook-failing.ts'
import { DISABLE_AFTER_MS } from './endpoint-health.ts'

export async function queueFailingNotice(
  tx: Tx,
  ctx: { clock: Clock; ids: IdGenerator; logger: FastifyBaseLogger; config: Pick<Config, 'mailLanguage'> },
  endpoint: WebhookEndpointsTable,
): Promise<boolean> {
  const account = await tx
    .selectFrom('accounts')
    .select(['owner_email', 'name'])
    .where('id', '=', endpoint.account_id)
    .executeTakeFirst()
  if (!account?.owner_email) {
    ctx.logger.warn(
      { webhook_endpoint_id: endpoint.id, account_id: endpoint.account_id },
      'webhook endpoint is failing; the account has no owner e-mail to tell',
    )
    return false
  }
  const message: MailMessage = {
    kind: 'webhook_failing',
    to: account.owner_email,
    bcc: null,
    reply_to: null,
    ...renderWebhookFailing(
      {
        url: endpoint.url,
        endpointId: endpoint.id,
        failures: endpoint.consecutive_failures,
        lastError: endpoint.last_failure_reason ?? 'unknown',
        disableAfterDays: DISABLE_AFTER_MS / 86_400_000,
        account: `${account.name} (${endpoint.account_id})`,
      },
      mailTexts(ctx.config.mailLanguage),
    ),
    submission_id: null,
    submitter_id: null,
    webhook_endpoint_id: endpoint.id,
  }
  await enqueueMail(tx, ctx, message)
  return true
}
