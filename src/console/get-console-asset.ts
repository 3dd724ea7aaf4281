// GET /console/assets/{name}: the console's script chunks and style sheet, named by content hash so
// browsers keep them for a year; brotli or gzip as the browser accepts.
import type { FastifyReply } from 'fastify'
import { Type } from 'typebox'
import { ApiError } from '../errors.ts'
import { defineRoute } from '../http/define-route.ts'
import { chooseEncoding } from '../lib/web-bundle.ts'
import { consoleAssets } from './console-assets.ts'
import { consoleSecurityHeaders } from './console-headers.ts'

export const getConsoleAsset = defineRoute({
  operationId: 'getConsoleAsset',
  method: 'GET',
  url: '/console/assets/:name',
  summary: "A file of the console's own (script, style sheet)",
  tag: 'Console',
  auth: 'none',
  perIpLimit: true,
  produces: 'application/octet-stream',
  schema: {
    params: Type.Object(
      { name: Type.String({ minLength: 1, maxLength: 200 }) },
      { additionalProperties: false },
    ),
    response: { 200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) },
  },
  errors: ['resource_not_found'],
  handler: async ({ params, reply, headers }) => {
    // The handler's reply is Fastify's own (register-route.ts); its declared type is narrower.
    consoleSecurityHeaders(reply as unknown as FastifyReply)
    const asset = (await consoleAssets()).files.get(params.name)
    if (!asset) throw new ApiError('resource_not_found', 'No such file of the console.')
    const encoding = chooseEncoding(headers['accept-encoding'])
    reply.header('content-type', asset.contentType)
    reply.header('cache-control', 'public, max-age=31536000, immutable')
    reply.header('vary', 'accept-encoding')
    if (encoding) reply.header('content-encoding', encoding)
    return encoding === 'br' ? asset.brotli : encoding === 'gzip' ? asset.gzip : asset.raw
  },
})
