// One route = one definition: its schemas drive validation, handler types, response serialization
// and the OpenAPI document (http/openapi.ts), so none of them can drift from the others.
import type { IncomingHttpHeaders } from 'node:http'
import type { Static, TSchema } from 'typebox'
import type { Tx } from '../db/tables.ts'
import type { Deps } from '../deps.ts'
import type { ErrorCode } from '../errors.ts'
import type { AuthenticatedKey } from './caller.ts'
import type { RegisteredRoute } from './route-table.ts'

export interface RouteSchemas {
  params?: TSchema
  querystring?: TSchema
  body?: TSchema
  /** Exactly one success status (200, 201, or 202 for work accepted to be done later) and its body. */
  response: { 200: TSchema } | { 201: TSchema } | { 202: TSchema }
}

type Part<S> = S extends TSchema ? Static<S> : undefined
type SuccessSchema<S extends RouteSchemas> = S['response'] extends { 200: infer R extends TSchema }
  ? R
  : S['response'] extends { 201: infer R extends TSchema }
    ? R
    : S['response'] extends { 202: infer R extends TSchema }
      ? R
      : never
export type SuccessBody<S extends RouteSchemas> = Static<SuccessSchema<S>>

export interface HandlerInput<S extends RouteSchemas> {
  params: Part<S['params']>
  query: Part<S['querystring']>
  body: Part<S['body']>
  /** The key's account and environment; every store function takes it into its WHERE. */
  scope: AuthenticatedKey
  requestId: string
  ip: string
  userAgent: string | undefined
  /** Request headers, for the few handlers that read one the layers do not (the signer's session, the signing page's Accept, Accept-Language, Accept-Encoding). */
  headers: IncomingHttpHeaders
  /**
   * Response headers beyond the schema's body (Content-Disposition of a download); a route that
   * `produces` a page may also set another status (an HTML error page for a person).
   */
  reply: { header(name: string, value: string): unknown; code(status: number): unknown }
  /**
   * Runs `work` in one transaction. On an idempotent route the stored response is written in that
   * same transaction (docs/security.md#idempotency), so a crash can never keep one without the
   * other.
   */
  transaction<T extends SuccessBody<S>>(work: (tx: Tx) => Promise<T>): Promise<T>
  /** Every route of this app, for a handler that names the route of a path (http/route-table.ts). */
  routes: readonly RegisteredRoute[]
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** An optional header or cookie a handler reads (never validated by the framework). */
export interface ExtraParameter {
  in: 'header' | 'cookie'
  name: string
  description: string
}

export interface RouteDefinition<S extends RouteSchemas = RouteSchemas> {
  operationId: string
  method: HttpMethod
  /** Fastify syntax: `/v1/submissions/:id`. */
  url: string
  summary: string
  description?: string
  tag: string
  /**
   * Which ways to call admit the caller (app.ts supplies the strategies, http/auth.ts runs them),
   * then the rate limit and scope. `api_key` (default): Bearer key (or, without one, the console's
   * session cookie). `console`: the console's session cookie only (/console/api, docs/console.md).
   * `mcp`: a Bearer key only, counted in the key's own MCP bucket (the MCP endpoint, docs/mcp.md).
   * `none`: operational routes, signer pages, console sign-in.
   */
  auth?: 'api_key' | 'console' | 'mcp' | 'none'
  /** The console role a session needs to call this route (API keys are not concerned): admin. */
  consoleRole?: 'admin'
  /** docs/api.md#idempotency: the Idempotency-Key header is mandatory and responses replay for 24 h. */
  idempotent?: boolean
  /**
   * A route without a key that a signer's browser (or a file download) calls: counted per client
   * address, RATE_LIMIT_SIGNER a minute (docs/operations.md#configuration, http/address-limit.ts).
   */
  perIpLimit?: boolean
  /** Bytes; default 1 MiB. */
  bodyLimit?: number
  /**
   * Deprecation (docs/deprecations.md#what-clients-see): every answer of the route, errors
   * included, carries `Deprecation` (RFC 9745, from `since`) and `Sunset` (RFC 8594), and `Link` to
   * `link` when given; the OpenAPI says `deprecated: true`; `paraph deprecations notify` mails the
   * accounts that call it. Dates are ISO 8601 (`2027-06-01` or a full timestamp).
   */
  deprecated?: { since: string; sunset: string; link?: string }
  /** Header and cookie parameters the handler reads itself, for the OpenAPI document. */
  extraParameters?: ExtraParameter[]
  /**
   * Headers sent on every answer of the route, refusals included, beside the common ones (the
   * console's security headers: console/shell/console-headers.ts).
   */
  headers?: Readonly<Record<string, string>>
  /** Headers of the success response beyond the common ones (name → description), for the OpenAPI document. */
  responseHeaders?: Record<string, string>
  /** Content type of a non-JSON success body (the handler then returns a string or Buffer). */
  produces?: string
  schema: S
  /**
   * A body of another type the route also takes (`text/csv` on POST /v1/bulk_sends), turned into the
   * JSON body it stands for before validation; the query string gives what the text cannot carry.
   */
  textBody?: {
    type: 'text/csv'
    description: string
    toBody(text: string, query: Record<string, unknown>): unknown
  }
  /**
   * A binary body the route also takes (`application/pdf` on POST /v1/verify), turned into the JSON
   * body it stands for before validation (app.ts: only the route that declares it accepts it).
   */
  binaryBody?: {
    type: 'application/pdf'
    description: string
    toBody(bytes: Buffer): unknown
  }
  /**
   * A second success answer, chosen by what the handler returns (POST /v1/bulk_sends answers its
   * dry run 200 with a check, its job 202): `when` tells the two apart, `schema` serializes it.
   */
  alternative?: {
    status: 200
    schema: TSchema
    description: string
    when(result: unknown): boolean
  }
  /** Every error code the handler itself can answer with; the framework's own are added by the layer. */
  errors: ErrorCode[]
  /** Which code a query-parameter violation gets instead of `invalid_request` (docs/api.md#lists-and-filters). */
  queryErrors?: Record<string, ErrorCode>
  /** May answer synchronously when it needs no I/O (GET /v1/health). */
  handler(input: HandlerInput<S>, deps: Deps): SuccessBody<S> | Promise<SuccessBody<S>>
}

export function defineRoute<S extends RouteSchemas>(route: RouteDefinition<S>): RouteDefinition<S> {
  return route
}

// biome-ignore lint/suspicious/noExplicitAny: a list holds routes of every schema
export type AnyRoute = RouteDefinition<any>

export function successStatus(route: AnyRoute): 200 | 201 | 202 {
  if (201 in route.schema.response) return 201
  return 202 in route.schema.response ? 202 : 200
}

/** The status of this answer: the alternative's when the handler's value is one (`alternative`). */
export function answerStatus(route: AnyRoute, result: unknown): 200 | 201 | 202 {
  return route.alternative?.when(result) ? route.alternative.status : successStatus(route)
}

export function successSchema(route: AnyRoute): TSchema {
  const response = route.schema.response as Record<number, TSchema>
  return response[successStatus(route)]!
}

export function usesApiKey(route: AnyRoute): boolean {
  return route.auth === undefined || route.auth === 'api_key' || route.auth === 'mcp'
}

/** Every error a route can answer with: its own plus those its layers add (auth, validation, idempotency). */
export function routeErrorCodes(route: AnyRoute): ErrorCode[] {
  const codes = new Set<ErrorCode>(route.errors)
  if (route.perIpLimit) codes.add('rate_limit_exceeded')
  if (usesApiKey(route)) {
    for (const c of ['missing_api_key', 'invalid_api_key', 'rate_limit_exceeded'] as const) codes.add(c)
  }
  if (route.auth === 'console') {
    for (const c of ['console_session_required', 'rate_limit_exceeded'] as const) codes.add(c)
    if (route.method !== 'GET') codes.add('csrf_token_invalid')
    if (route.consoleRole) codes.add('console_role_forbidden')
  }
  if (route.schema.params) codes.add('invalid_id')
  if (route.schema.querystring) {
    codes.add('invalid_request')
    for (const c of Object.values(route.queryErrors ?? {})) codes.add(c)
  }
  // Any method but GET may carry a body, which is parsed (and may be refused) even where the
  // route reads none.
  if (route.schema.body || route.method !== 'GET') {
    for (const c of [
      'invalid_json',
      'invalid_request',
      'request_too_large',
      'unsupported_content_type',
    ] as const) {
      codes.add(c)
    }
  }
  if (route.idempotent) {
    for (const c of [
      'idempotency_key_required',
      'idempotency_key_reused_with_different_body',
      'idempotency_key_in_use',
    ] as const) {
      codes.add(c)
    }
  }
  codes.add('handler_error')
  return [...codes]
}
