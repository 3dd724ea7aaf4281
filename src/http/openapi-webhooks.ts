// The `webhooks` section of GET /openapi.yaml (docs/webhooks.md#in-the-openapi-description): one
// POST per type a webhook endpoint can receive, its body a named component, and `WebhookEvent`,
// their union discriminated by `type`. The types and their schemas come from the caller (app.ts
// hands in src/webhooks/webhook-events.ts): http/ knows no capability.
import type { TSchema } from 'typebox'

type Json = Record<string, unknown>

/** The `webhooks` section's input: src/webhooks/webhook-events.ts (http/ knows no capability). */
export interface WebhookSection {
  /** The header carrying the signature: its name, its shape, how to check it. */
  signature: { header: string; pattern: string; description: string }
  /** What every delivery is: the answer expected, the retries. */
  description: string
  /** Every type an endpoint can receive, with the schema (titled) of its body. */
  events: Array<{ type: string; body: TSchema }>
}

/** `submission.partially_signed` → `submissionPartiallySignedWebhook`. */
function webhookOperationId(type: string): string {
  const [first, ...rest] = type.split(/[._]/)
  return `${first}${rest.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('')}Webhook`
}

/**
 * One POST per type, its body a named component; and `WebhookEvent`, the union of the bodies
 * discriminated by `type`, for a generator to type whatever arrives.
 */
export function webhooksOf(
  section: WebhookSection,
  named: (schema: TSchema) => unknown,
  components: Record<string, unknown>,
): Json {
  const webhooks: Json = {}
  const mapping: Record<string, string> = {}
  for (const { type, body } of section.events) {
    const schema = named(body) as { $ref: string }
    mapping[type] = schema.$ref
    const { description } = body as { description?: string }
    webhooks[type] = {
      post: {
        operationId: webhookOperationId(type),
        summary: type,
        description: `${description ?? ''}\n\n${section.description}`.trim(),
        tags: ['Webhook events'],
        security: [],
        parameters: [
          {
            name: section.signature.header,
            in: 'header',
            required: true,
            description: section.signature.description,
            schema: { type: 'string', pattern: section.signature.pattern },
          },
        ],
        requestBody: { required: true, content: { 'application/json': { schema } } },
        responses: {
          '2XX': { description: 'Any 2xx acknowledges the delivery' },
          default: {
            description:
              'Anything else, a 3xx included, or no answer within 10 s: a failure, retried on the schedule',
          },
        },
      },
    }
  }
  components.WebhookEvent = {
    description: 'Any body a webhook endpoint can receive (docs/webhooks.md#the-body), told apart by `type`',
    oneOf: Object.values(mapping).map(($ref) => ({ $ref })),
    discriminator: { propertyName: 'type', mapping },
  }
  return webhooks
}
