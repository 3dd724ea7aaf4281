// GET /console/assets/{name}: the console's script chunks and style sheet, named by content hash so
// browsers keep them for a year; brotli or gzip as the browser accepts.
import type { FastifyReply } from 'fastify'
import { ApiError } from '../../errors.ts'
import { defineRoute } from '../../http/define-route.ts'
import { ASSET_ROUTE_SCHEMA, assetAnswer } from '../../lib/web-bundle.ts'
import { consoleAssets } from './console-assets.ts'
import { CONSOLE_SECURITY_HEADERS, consoleSecurityHeaders } from './console-headers.ts'

export const getConsoleAsset = defineRoute({
  operationId: 'getConsoleAsset',
  method: 'GET',
  url: '/console/assets/:name',
  summary: "A file of the console's own (script, style sheet)",
  tag: 'Console',
  auth: 'none',
  headers: CONSOLE_SECURITY_HEADERS,
  perIpLimit: true,
  produces: 'application/octet-stream',
  schema: ASSET_ROUTE_SCHEMA,
  errors: ['resource_not_found'],
  handler: async ({ params, reply, headers }) => {
    // The handler's reply is Fastify's own (register-route.ts); its declared type is narrower.
    consoleSecurityHeaders(reply as unknown as FastifyReply)
    const asset = (await consoleAssets()).files.get(params.name)
    if (!asset) throw new ApiError('resource_not_found', 'No such file of the console.')
    return assetAnswer(asset, reply, headers['accept-encoding'])
  },
})
