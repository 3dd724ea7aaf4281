// GET /openapi.yaml — an OpenAPI 3.1 document generated from the route list itself: the schemas
// that validate requests and serialize responses are the ones published, with every error a route
// can answer (its own and those its layers add); and its `webhooks` section from the schemas the
// event bodies are typed with (docs/webhooks.md#in-the-openapi-description), handed in by app.ts.
import { type TSchema, Type } from 'typebox'
import { stringify } from 'yaml'
import { describeCode, type ErrorCode, statusOf, typeOf } from '../errors.ts'
import { LIMITS, limitsMarkdown } from '../limits.ts'
import { ErrorBody } from './common-schemas.ts'
import {
  type AnyRoute,
  defineRoute,
  routeErrorCodes,
  successSchema,
  successStatus,
  usesApiKey,
} from './define-route.ts'
import { type WebhookSection, webhooksOf } from './openapi-webhooks.ts'

type Json = Record<string, unknown>

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
}

const COMPONENT_HEADERS = {
  'Request-Id': {
    description: 'Id of this request (`req_…`); quote it when reporting a problem.',
    schema: { type: 'string' },
  },
  'X-RateLimit-Limit': {
    description: 'Requests allowed per minute for this key.',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current minute.',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Reset': {
    description: 'Unix time (seconds) at which the current minute ends.',
    schema: { type: 'integer' },
  },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
  'Idempotent-Replayed': {
    description:
      '`true` when this response is the stored answer to an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
  Deprecation: {
    description:
      'This route is deprecated (RFC 9745): `@` and the Unix time (seconds) at which it was, e.g. `@1793491200`. See docs/deprecations.md.',
    schema: { type: 'string', pattern: '^@[0-9]+$' },
  },
  Sunset: {
    description: 'HTTP-date after which this deprecated route stops working (RFC 8594).',
    schema: { type: 'string' },
  },
  Link: {
    description:
      'On a deprecated route with a notice page: `<url>; rel="deprecation", <url>; rel="sunset"` (RFC 9745, RFC 8594).',
    schema: { type: 'string' },
  },
}

/** A deprecated route's headers, on its success and its error answers alike. */
function deprecationHeaderRefs(route: AnyRoute): Json {
  if (!route.deprecated) return {}
  return {
    Deprecation: { $ref: '#/components/headers/Deprecation' },
    Sunset: { $ref: '#/components/headers/Sunset' },
    ...(route.deprecated.link ? { Link: { $ref: '#/components/headers/Link' } } : {}),
  }
}

/** Codes whose answer carries `Retry-After`. */
const RETRY_AFTER_CODES: ErrorCode[] = [
  'rate_limit_exceeded',
  'idempotency_key_in_use',
  'code_resend_too_soon',
  'code_send_limit_reached',
]

/** Schemas with a `title` become named components; everything else stays inline. */
function hoist(schema: unknown, components: Record<string, unknown>, root = true): unknown {
  if (Array.isArray(schema)) return schema.map((s) => hoist(s, components, false))
  if (schema === null || typeof schema !== 'object') return schema
  const copy: Json = {}
  for (const [k, v] of Object.entries(schema)) copy[k] = hoist(v, components, false)
  const title = (schema as Json).title
  if (typeof title === 'string' && /^[A-Za-z0-9_]+$/.test(title) && !root) {
    // A Nullable() of a named schema (`type: [T, 'null']`, common-schemas.ts) names the schema
    // itself and adds null beside the reference: one component per title, never a nullable
    // variant overwriting the plain one or the reverse (`Metadata`).
    const { type } = copy
    const nullable = Array.isArray(type) && type.length === 2 && type.includes('null')
    if (nullable) copy.type = type.find((t) => t !== 'null')
    components[title] = copy
    const ref = { $ref: `#/components/schemas/${title}` }
    return nullable ? { anyOf: [ref, { type: 'null' }] } : ref
  }
  return copy
}

function named(schema: TSchema, components: Record<string, unknown>): unknown {
  return hoist(schema, components, false)
}

function parameters(route: AnyRoute, components: Record<string, unknown>): Json[] {
  const out: Json[] = []
  for (const [where, schema] of [
    ['path', route.schema.params],
    ['query', route.schema.querystring],
  ] as const) {
    if (!schema) continue
    const required = new Set<string>((schema as Json).required as string[] | undefined)
    for (const [name, prop] of Object.entries((schema as Json).properties as Record<string, Json>)) {
      const { description, ...rest } = prop
      out.push({
        name,
        in: where,
        required: where === 'path' || required.has(name),
        ...(description ? { description } : {}),
        schema: hoist(rest, components, false),
      })
    }
  }
  for (const extra of route.extraParameters ?? []) {
    out.push({
      name: extra.name,
      in: extra.in,
      required: false,
      description: extra.description,
      schema: { type: 'string' },
    })
  }
  if (route.idempotent) {
    out.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: true,
      description:
        'Required (docs/api.md#idempotency). 1-255 of `A-Z a-z 0-9 _ - + . : =`; a UUID v4 is best. The same key and body within 24 h replays the stored response; the body fingerprint is the SHA-256 of its canonical JSON (keys sorted), so whitespace and key order do not matter. A request that fails is not stored: retrying with the same key runs it again. While the first request runs, the same key gets 409 `idempotency_key_in_use` with `Retry-After: 1`; its claim is a 6 s lease renewed while it runs, so if the process running it dies the key is usable again within 6 s.',
      schema: { type: 'string', pattern: '^[A-Za-z0-9_\\-+.:=]{1,255}$' },
    })
  }
  return out
}

function errorResponses(route: AnyRoute): Record<string, Json> {
  const byStatus = new Map<number, ErrorCode[]>()
  for (const code of routeErrorCodes(route)) {
    const list = byStatus.get(statusOf(code)) ?? []
    list.push(code)
    byStatus.set(statusOf(code), list)
  }
  const responses: Record<string, Json> = {}
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    const examples: Json = {}
    for (const code of codes) {
      examples[code] = {
        summary: describeCode(code),
        value: { error: { type: typeOf(code), code, message: describeCode(code) } },
      }
    }
    const headers: Json = { 'Request-Id': { $ref: '#/components/headers/Request-Id' } }
    if (usesApiKey(route) && status !== 401) Object.assign(headers, RATE_LIMIT_HEADERS)
    if (codes.some((c) => RETRY_AFTER_CODES.includes(c))) {
      headers['Retry-After'] = { $ref: '#/components/headers/Retry-After' }
    }
    Object.assign(headers, deprecationHeaderRefs(route))
    responses[String(status)] = {
      description: codes.map((c) => `\`${c}\``).join(', '),
      headers,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' }, examples } },
    }
  }
  return responses
}

function operation(route: AnyRoute, components: Record<string, unknown>): Json {
  const status = successStatus(route)
  const headers: Json = { 'Request-Id': { $ref: '#/components/headers/Request-Id' } }
  if (usesApiKey(route)) Object.assign(headers, RATE_LIMIT_HEADERS)
  if (route.idempotent) headers['Idempotent-Replayed'] = { $ref: '#/components/headers/Idempotent-Replayed' }
  Object.assign(headers, deprecationHeaderRefs(route))
  for (const [name, description] of Object.entries(route.responseHeaders ?? {})) {
    headers[name] = { description, schema: { type: 'string' } }
  }
  const content = route.produces
    ? { [route.produces]: { schema: { type: 'string' } } }
    : { 'application/json': { schema: named(successSchema(route), components) } }
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [route.tag],
    ...(route.deprecated ? { deprecated: true } : {}),
    security: usesApiKey(route) ? [{ apiKey: [] }] : [],
    parameters: parameters(route, components),
    ...(route.schema.body
      ? {
          requestBody: {
            required: true,
            description: `JSON (\`Content-Type: application/json\`, UTF-8)${route.binaryBody ? `, or the file itself (\`Content-Type: ${route.binaryBody.type}\`),` : ''} of at most ${route.bodyLimit ?? LIMITS.jsonBodyBytes} bytes: a larger body is 413 \`request_too_large\`, another content type 415 \`unsupported_content_type\`.`,
            content: {
              'application/json': { schema: named(route.schema.body, components) },
              ...(route.textBody && {
                [route.textBody.type]: {
                  schema: { type: 'string', description: route.textBody.description },
                },
              }),
              ...(route.binaryBody && {
                [route.binaryBody.type]: {
                  schema: {
                    type: 'string',
                    contentMediaType: route.binaryBody.type,
                    description: route.binaryBody.description,
                  },
                },
              }),
            },
          },
        }
      : {}),
    responses: {
      ...(route.alternative && {
        [String(route.alternative.status)]: {
          description: route.alternative.description,
          headers,
          content: { 'application/json': { schema: named(route.alternative.schema, components) } },
        },
      }),
      [String(status)]: { description: route.summary, headers, content },
      ...errorResponses(route),
    },
  }
}

export function buildOpenApi(routes: AnyRoute[], serverUrl: string, webhookSection?: WebhookSection): Json {
  const components: Record<string, unknown> = { Error: hoist(ErrorBody, {}, true) }
  const paths: Record<string, Json> = {}
  for (const route of routes) {
    const path = route.url.replace(/:([A-Za-z_]+)/g, '{$1}')
    paths[path] ??= {}
    paths[path]![route.method.toLowerCase()] = operation(route, components)
  }
  const webhooks = webhookSection
    ? { webhooks: webhooksOf(webhookSection, (schema) => named(schema, components), components) }
    : {}
  return {
    openapi: '3.1.0',
    info: {
      title: 'Paraph API',
      version: '1.0.0',
      description: `Electronic signatures (simple electronic signature, eIDAS 910/2014). Errors are \`{ error: { type, code, message } }\`; clients branch on the HTTP status, then on \`error.code\`, with a default case. Lists return \`{ data, has_more, next_cursor }\`. Every response to a request with a valid key (errors and unknown \`/v1\` routes included) carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\`. While the database is unavailable, requests answer 500 \`db_error\` at once: retry with backoff and the same \`Idempotency-Key\`.\n\n## Limits\n\n${limitsMarkdown()}`,
    },
    servers: [{ url: serverUrl }],
    security: [{ apiKey: [] }],
    paths,
    ...webhooks,
    components: {
      schemas: components,
      headers: COMPONENT_HEADERS,
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description:
            '`Authorization: Bearer sk_test_…` or `sk_live_…`. Test and live data never see each other.',
        },
      },
    },
  }
}

/** The route serving the document; built lazily from the final route list, then cached. */
export function openApiRoute(routes: () => AnyRoute[], serverUrl: string, webhookSection: WebhookSection) {
  let cached: string | undefined
  return defineRoute({
    operationId: 'getOpenApi',
    method: 'GET',
    url: '/openapi.yaml',
    summary: 'This OpenAPI 3.1 description',
    tag: 'Operations',
    auth: 'none',
    produces: 'application/yaml; charset=utf-8',
    schema: { response: { 200: Type.String() } },
    errors: [],
    handler: async () => {
      cached ??= stringify(buildOpenApi(routes(), serverUrl, webhookSection), {
        aliasDuplicateObjects: false,
      })
      return cached
    },
  })
}
