// GET /signing-page/assets/{name}: the signing page's script, style sheet and font, named by content
// hash so browsers keep them for a year; brotli or gzip as the browser accepts.
import { Type } from 'typebox'
import { ApiError } from '../errors.ts'
import { defineRoute } from '../http/define-route.ts'
import { chooseEncoding } from '../lib/web-bundle.ts'
import { pageAssets } from './page-assets.ts'

export const getPageAsset = defineRoute({
  operationId: 'getPageAsset',
  method: 'GET',
  url: '/signing-page/assets/:name',
  summary: "A file of the signing page's own (script, style sheet, font)",
  tag: 'Signing page',
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
    const asset = (await pageAssets()).files.get(params.name)
    if (!asset) throw new ApiError('resource_not_found', 'No such file of the signing page.')
    const encoding = chooseEncoding(headers['accept-encoding'])
    reply.header('content-type', asset.contentType)
    reply.header('cache-control', 'public, max-age=31536000, immutable')
    reply.header('vary', 'accept-encoding')
    reply.header('x-content-type-options', 'nosniff')
    if (encoding) reply.header('content-encoding', encoding)
    return encoding === 'br' ? asset.brotli : encoding === 'gzip' ? asset.gzip : asset.raw
  },
})
