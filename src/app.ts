// buildApp(deps): the whole HTTP service as one Fastify instance, every route registered from the
// one list below. It never listens: the CLI does, tests use app.inject().

import { isUtf8 } from 'node:buffer'
import type { Socket } from 'node:net'
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify'
import { apiKeyAuth } from './accounts/api-key-auth.ts'
import { getHealth } from './accounts/get-health.ts'
import { routeName } from './accounts/key-activity.ts'
import { cancelBulkSend } from './bulk-sends/cancel-bulk-send.ts'
import { createBulkSend } from './bulk-sends/create-bulk-send.ts'
import { getBulkSend } from './bulk-sends/get-bulk-send.ts'
import { listBulkSendRows } from './bulk-sends/list-bulk-send-rows.ts'
import { listBulkSends } from './bulk-sends/list-bulk-sends.ts'
import { consoleSessionAuth } from './console/access/console-auth.ts'
import { signInWithLink } from './console/access/sign-in-with-link.ts'
import { CONSOLE_API_ROUTES } from './console/console-routes.ts'
import { createTemplateDraft } from './console/drafts/create-template-draft.ts'
import { DRAFT_BODY_TYPES } from './console/drafts/template-draft-schemas.ts'
import { CONSOLE_PAGE_ROUTES } from './console/shell/get-console-page.ts'
import { redirectBrowserAtRoot } from './console/shell/root-for-browsers.ts'
import type { Deps } from './deps.ts'
import { getFile } from './documents/get-file.ts'
import { ApiError } from './errors.ts'
import { listEvents } from './events/list-events.ts'
import { trustProxyOption } from './http/address-limit.ts'
import { type AuthStrategies, authenticate } from './http/auth.ts'
import type { AnyRoute } from './http/define-route.ts'
import { errorHandler, MAX_PARAM_LENGTH, notFoundHandler } from './http/error-handler.ts'
import { getLiveness, getReadiness } from './http/health.ts'
import { parseJsonBody } from './http/json-body.ts'
import { openApiRoute } from './http/openapi.ts'
import { registerRoute } from './http/register-route.ts'
import { bodyAjv, textAjv } from './http/validation.ts'
import { requestIdSource } from './lib/ids.ts'
import { LIMITS } from './limits.ts'
import { mcpRoutes } from './mcp/mcp-route.ts'
import { createErasure } from './privacy/create-erasure.ts'
import { createLegalHold } from './privacy/create-legal-hold.ts'
import { getErasure } from './privacy/get-erasure.ts'
import { getLegalHold } from './privacy/get-legal-hold.ts'
import { getRetentionPolicy } from './privacy/get-retention-policy.ts'
import { listLegalHolds } from './privacy/list-legal-holds.ts'
import { purgeSubmission } from './privacy/purge-submission.ts'
import { releaseLegalHold } from './privacy/release-legal-hold.ts'
import { updateRetentionPolicy } from './privacy/update-retention-policy.ts'
import { listRequestLogs } from './request-logs/list-request-logs.ts'
import { requestLogHook } from './request-logs/request-log-hook.ts'
import { declineEmbedSigning, declineSigning } from './signing-page/decline-signing.ts'
import { getCurrentPdf } from './signing-page/get-current-pdf.ts'
import { getPageAsset } from './signing-page/get-page-asset.ts'
import { PAGE_IMAGE_ROUTES } from './signing-page/get-page-image.ts'
import { getEmbedSigningForm, getSigningForm } from './signing-page/get-signing-form.ts'
import { SIGNING_PAGE_ROUTES } from './signing-page/get-signing-page.ts'
import { openEmbedSigning, openSigning } from './signing-page/open-signing.ts'
import { saveEmbedSigningProgress, saveSigningProgress } from './signing-page/save-signing-progress.ts'
import { sendEmailCode, sendEmbedEmailCode } from './signing-page/send-email-code.ts'
import { signDocument, signEmbedDocument } from './signing-page/sign-document.ts'
import { verifyEmailCode, verifyEmbedEmailCode } from './signing-page/verify-email-code.ts'
import { cancelSubmission } from './submissions/cancel-submission.ts'
import { createSubmission } from './submissions/create-submission.ts'
import { createSubmissionFromDocx } from './submissions/create-submission-from-docx.ts'
import { createSubmissionFromHtml } from './submissions/create-submission-from-html.ts'
import { createSubmissionFromPdf } from './submissions/create-submission-from-pdf.ts'
import { getAuditLog, getAuditLogJson } from './submissions/get-audit-log.ts'
import { getSubmission } from './submissions/get-submission.ts'
import { getSubmissionDocuments } from './submissions/get-submission-documents.ts'
import { listSubmissions } from './submissions/list-submissions.ts'
import { createEmbedToken } from './submitters/create-embed-token.ts'
import { getSubmitter } from './submitters/get-submitter.ts'
import { listSubmitters } from './submitters/list-submitters.ts'
import { remindSubmitter } from './submitters/remind-submitter.ts'
import { updateSubmitter } from './submitters/update-submitter.ts'
import { archiveTemplate } from './templates/archive-template.ts'
import { createTemplate } from './templates/create-template.ts'
import { getTemplate } from './templates/get-template.ts'
import { listTemplates } from './templates/list-templates.ts'
import { getUsage } from './usage/get-usage.ts'
import { verifyPdf } from './verification/verify-pdf.ts'
import { createWebhookEndpoint } from './webhooks/create-webhook-endpoint.ts'
import { deleteWebhookEndpoint } from './webhooks/delete-webhook-endpoint.ts'
import { getWebhookEndpoint } from './webhooks/get-webhook-endpoint.ts'
import { listWebhookDeliveries } from './webhooks/list-webhook-deliveries.ts'
import { listWebhookEndpoints } from './webhooks/list-webhook-endpoints.ts'
import { retryWebhookDelivery } from './webhooks/retry-webhook-delivery.ts'
import { rotateWebhookSecret } from './webhooks/rotate-webhook-secret.ts'
import { testWebhookEndpoint } from './webhooks/test-webhook-endpoint.ts'
import { WEBHOOK_SECTION } from './webhooks/webhook-events.ts'

/** Every public API route (docs/api.md#routes), then the signer's and the file routes. */
export const API_ROUTES: AnyRoute[] = [
  getHealth,
  listTemplates,
  createTemplate,
  getTemplate,
  archiveTemplate,
  listSubmissions,
  createSubmission,
  createSubmissionFromPdf,
  createSubmissionFromHtml,
  createSubmissionFromDocx,
  getSubmission,
  cancelSubmission,
  getSubmissionDocuments,
  getAuditLog,
  getAuditLogJson,
  listSubmitters,
  getSubmitter,
  updateSubmitter,
  remindSubmitter,
  createEmbedToken,
  listWebhookEndpoints,
  createWebhookEndpoint,
  getWebhookEndpoint,
  deleteWebhookEndpoint,
  testWebhookEndpoint,
  listWebhookDeliveries,
  retryWebhookDelivery,
  rotateWebhookSecret,
  listEvents,
  listBulkSends,
  createBulkSend,
  getBulkSend,
  cancelBulkSend,
  listBulkSendRows,
  getUsage,
  listRequestLogs,
  // Personal data (docs/privacy.md)
  getRetentionPolicy,
  updateRetentionPolicy,
  purgeSubmission,
  listLegalHolds,
  createLegalHold,
  getLegalHold,
  releaseLegalHold,
  createErasure,
  getErasure,
  // Is this PDF a file this instance sealed (docs/privacy.md#verification)
  verifyPdf,
  getSigningForm,
  getEmbedSigningForm,
  sendEmailCode,
  sendEmbedEmailCode,
  verifyEmailCode,
  verifyEmbedEmailCode,
  openSigning,
  openEmbedSigning,
  saveSigningProgress,
  saveEmbedSigningProgress,
  signDocument,
  signEmbedDocument,
  declineSigning,
  declineEmbedSigning,
  ...SIGNING_PAGE_ROUTES,
  ...PAGE_IMAGE_ROUTES,
  getPageAsset,
  getFile,
  getCurrentPdf,
]

/** Routes outside /v1: probes and the API description. */
function operationalRoutes(all: () => AnyRoute[], deps: Deps): AnyRoute[] {
  return [getLiveness, getReadiness, openApiRoute(all, deps.config.publicUrl, WEBHOOK_SECTION)]
}

declare module 'fastify' {
  interface FastifyInstance {
    registeredRoutes: string[]
  }
}

export const DEFAULT_BODY_LIMIT = LIMITS.jsonBodyBytes

/** A request Node cannot even parse (bad header bytes) still gets the envelope. */
function unparsableRequest(_error: Error, socket: Socket): void {
  const body = JSON.stringify({
    error: { type: 'invalid_request_error', code: 'invalid_request', message: 'Malformed HTTP request.' },
  })
  if (socket.writable) {
    socket.end(
      `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    )
  }
}

/**
 * An unknown route. Under /v1 with an Authorization header, the key is checked and counted first, as
 * on every API route (the X-RateLimit-* headers on every authenticated answer, a 404
 * included): a wrong key is 401, a right one gets its 404 with its quota. Without a key, a plain
 * 404 tells a developer the URL is wrong (GitHub's API answers the same way). `/` opened by a
 * browser is redirected to the console (console/shell/root-for-browsers.ts).
 */
function unknownRoute(deps: Deps, auth: AuthStrategies) {
  const authenticateRequest = authenticate(deps, auth.api_key)
  return (request: FastifyRequest, reply: FastifyReply) => {
    if (redirectBrowserAtRoot(request, reply)) return
    const path = request.url
    const api = path === '/v1' || path.startsWith('/v1/') || path.startsWith('/v1?')
    if (!api || request.headers.authorization === undefined) return notFoundHandler(request, reply)
    authenticateRequest(request, reply, (error) =>
      error ? errorHandler(error, request, reply) : notFoundHandler(request, reply),
    )
  }
}

/**
 * The console's sign-in page posts a plain HTML form (no script): its body (empty, or
 * form-encoded) is accepted there and nowhere else, where it stays 415 as every non-JSON body.
 */
const FORM_ROUTES = new Set([signInWithLink.url])
/** The console's template editor uploads the file itself (PDF, HTML or DOCX), as the raw body. */
const DRAFT_ROUTES = new Set([createTemplateDraft.url])

/**
 * Body types that only the given routes accept (their handlers read the raw bytes, or nothing), and
 * the routes that declare one as their `binaryBody` (the PDF of POST /v1/verify), turned into the
 * JSON body it stands for before validation.
 */
function onlyOnRoutes(
  app: FastifyInstance,
  contentTypes: string[],
  urls: Set<string>,
  routes: AnyRoute[] = [],
): void {
  const binary = new Map(routes.flatMap((r) => (r.binaryBody ? [[r.url, r.binaryBody] as const] : [])))
  app.addContentTypeParser(contentTypes, { parseAs: 'buffer' }, (request, body, done) => {
    if (urls.has(request.routeOptions.url ?? '')) return done(null, body)
    const binaryBody = binary.get(request.routeOptions.url ?? '')
    if (
      binaryBody &&
      request.headers['content-type']?.split(';')[0]?.trim().toLowerCase() === binaryBody.type
    )
      return done(null, binaryBody.toBody(body as Buffer))
    const error = Object.assign(new Error(`Unsupported media type ${request.headers['content-type']}`), {
      code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
    })
    done(error, undefined)
  })
}

/**
 * Text bodies a route also takes (`textBody`: CSV on POST /v1/bulk_sends): UTF-8 text, turned into
 * the JSON body the route validates; any other route answers them 415 as every non-JSON body.
 */
function textBodies(app: FastifyInstance, routes: AnyRoute[]): void {
  const byUrl = new Map(routes.flatMap((r) => (r.textBody ? [[r.url, r.textBody] as const] : [])))
  const types = [...new Set([...byUrl.values()].map((t) => t.type))]
  if (types.length === 0) return
  app.addContentTypeParser(types, { parseAs: 'buffer' }, (request, body, done) => {
    const textBody = byUrl.get(request.routeOptions.url ?? '')
    if (!textBody) {
      const error = Object.assign(new Error(`Unsupported media type ${request.headers['content-type']}`), {
        code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
      })
      return done(error, undefined)
    }
    const bytes = body as Buffer
    if (!isUtf8(bytes)) {
      return done(
        new ApiError('invalid_request', `body: a ${textBody.type} body must be UTF-8 text.`),
        undefined,
      )
    }
    done(null, textBody.toBody(bytes.toString('utf8'), (request.query ?? {}) as Record<string, unknown>))
  })
}

/**
 * The ways to call, by the `auth` a route declares (http/auth.ts): an API route takes an API key or,
 * without an Authorization header, the console's session cookie; the console's own API the cookie
 * only; the MCP endpoint an API key only, counted in the key's `mcp` bucket (docs/mcp.md#rate-limits).
 */
function authStrategies(deps: Deps): AuthStrategies {
  const consoleSession = consoleSessionAuth(deps)
  const apiKey = apiKeyAuth(deps)
  return {
    api_key: [apiKey, consoleSession],
    console: [consoleSession],
    mcp: [{ ...apiKey, bucket: 'mcp' }],
  }
}

export function buildApp(
  deps: Deps,
  apiRoutes: AnyRoute[] = API_ROUTES,
  consoleRoutes: AnyRoute[] = [...CONSOLE_API_ROUTES, ...CONSOLE_PAGE_ROUTES],
): FastifyInstance {
  const app = Fastify({
    loggerInstance: deps.logger,
    logController: new LogController({ disableRequestLogging: true }),
    // request.log is the root logger itself: a child logger per request (to bind its id) cost a
    // quarter of a request's CPU. Lines that concern a request carry `request_id` explicitly.
    childLoggerFactory: (logger) => logger,
    genReqId: requestIdSource(),
    requestIdHeader: false,
    clientErrorHandler: unparsableRequest,
    bodyLimit: DEFAULT_BODY_LIMIT,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    return503OnClosing: true,
    // TRUST_PROXY in docs/operations.md#configuration: request.ip, for the audit trail and the
    // signer limits.
    trustProxy: trustProxyOption(deps.config.trustProxy),
    // A URL Fastify cannot even route (bad percent-encoding) still gets the envelope.
    frameworkErrors: (error, request, reply) => errorHandler(error, request, reply),
  })
  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'body' ? bodyAjv.compile(schema) : textAjv.compile(schema),
  )
  // Every route Fastify registers, for the inventory check (no undocumented route answers).
  const registered: string[] = []
  app.decorate('registeredRoutes', registered)
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat())
      if (method !== 'HEAD') registered.push(`${method} ${route.url}`)
  })
  app.decorateRequest('route', null)
  app.decorateRequest('scope', null)
  app.decorateRequest('idempotencyKey', null)
  app.decorateRequest('apiError', null)
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, parseJsonBody(body as Buffer)),
  )
  onlyOnRoutes(app, ['application/x-www-form-urlencoded'], FORM_ROUTES)
  onlyOnRoutes(app, DRAFT_BODY_TYPES, DRAFT_ROUTES, apiRoutes)
  textBodies(app, apiRoutes)
  app.setErrorHandler(errorHandler)
  const auth = authStrategies(deps)
  app.setNotFoundHandler(unknownRoute(deps, auth))

  const logRequest = requestLogHook(deps.requestLogs, deps.clock)
  const { metrics } = deps
  // One structured line per request (Fastify's two default lines cost throughput and say less).
  app.addHook('onResponse', (request, reply, done) => {
    deps.accessLog.write({
      requestId: request.id,
      method: request.method,
      route: request.route?.url ?? null,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 100) / 100,
      keyId: request.scope?.keyId,
      accountId: request.scope?.accountId,
    })
    // The route's pattern, never the URL: an id in a label would make a series per resource.
    metrics.httpRequest(
      request.method,
      request.route?.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    )
    if (request.scope && request.route) deps.keyActivity.seen(request.scope, routeName(request.route))
    logRequest(request, reply)
    // A write that succeeded has committed, with any job it enqueued: wake the idle worker.
    if (reply.statusCode < 400 && request.method !== 'GET' && request.method !== 'HEAD') deps.jobBell.ring()
    done()
  })

  const all: AnyRoute[] = []
  all.push(...apiRoutes, ...operationalRoutes(() => all, deps))
  for (const route of all) registerRoute(app, route, deps, auth)
  // The console's own routes (docs/console.md): not part of the public API, nor of its OpenAPI.
  for (const route of consoleRoutes) registerRoute(app, route, deps, auth)
  // The MCP endpoint (docs/mcp.md): a protocol of its own, whose tools call the routes above.
  for (const route of mcpRoutes(app)) registerRoute(app, route, deps, auth)
  return app
}
