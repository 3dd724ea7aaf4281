// GET /signing-page/assets/{name}: the signing page's script, style sheet and font, named by content
// hash so browsers keep them for a year; brotli or gzip as the browser accepts.
import { ApiError } from '../errors.ts'
import { defineRoute } from '../http/define-route.ts'
import { ASSET_ROUTE_SCHEMA, assetAnswer } from '../lib/web-bundle.ts'
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
  schema: ASSET_ROUTE_SCHEMA,
  errors: ['resource_not_found'],
  handler: async ({ params, reply, headers }) => {
    const asset = (await pageAssets()).files.get(params.name)
    if (!asset) throw new ApiError('resource_not_found', 'No such file of the signing page.')
    return assetAnswer(asset, reply, headers['accept-encoding'])
  },
})
