// GET /console/api/template_drafts/:id/pages/:page?w=800|1200|1600 — one page of a draft as a JPEG,
// rendered on the server as the signing page does (get-page-image.ts): kept in the blob store beside
// the draft, two requests for the same image at once render it once. The image never changes for
// the draft's life, so the browser keeps it (immutable) and scrolling back costs nothing.
import { Type } from 'typebox'
import type { Deps } from '../../deps.ts'
import { ApiError, orNotFound } from '../../errors.ts'
import { defineRoute } from '../../http/define-route.ts'
import { PageImageError, renderPageImage } from '../../pdf/read/page-image.ts'
import { PAGE_IMAGE_WIDTHS } from '../../signing-page/get-page-image.ts'
import { CONSOLE_NO_STORE_HEADERS } from '../shell/console-headers.ts'
import { findTemplateDraft } from './template-draft-store.ts'

const rendering = new Map<string, Promise<Buffer>>()

async function draftPageImage(deps: Deps, blobKey: string, page: number, width: number): Promise<Buffer> {
  const key = `${blobKey}.pages/${page}-${width}.jpg`
  const cached = await deps.blobs.get(key)
  if (cached) return cached
  let job = rendering.get(key)
  if (!job) {
    job = (async () => {
      const pdf = await deps.blobs.get(blobKey)
      if (!pdf) throw new ApiError('resource_not_found', 'This draft is missing from storage.')
      const jpeg = await renderPageImage(pdf, page, width)
      await deps.blobs.put(key, jpeg, 'image/jpeg')
      return jpeg
    })().finally(() => rendering.delete(key))
    rendering.set(key, job)
  }
  try {
    return await job
  } catch (error) {
    if (error instanceof PageImageError) throw new ApiError('page_render_failed', error.message)
    throw error
  }
}

export const getTemplateDraftPage = defineRoute({
  operationId: 'getTemplateDraftPage',
  method: 'GET',
  url: '/console/api/template_drafts/:id/pages/:page',
  summary: 'One page of a template draft as a JPEG',
  tag: 'Console',
  auth: 'console',
  headers: CONSOLE_NO_STORE_HEADERS,
  produces: 'image/jpeg',
  schema: {
    params: Type.Object(
      { id: Type.String({ minLength: 1, maxLength: 64 }), page: Type.String({ pattern: '^[0-9]{1,4}$' }) },
      { additionalProperties: false },
    ),
    querystring: Type.Object(
      { w: Type.Optional(Type.Union(PAGE_IMAGE_WIDTHS.map((w) => Type.Literal(String(w))))) },
      { additionalProperties: false },
    ),
    response: { 200: Type.Unsafe<Buffer>({ type: 'string', contentMediaType: 'image/jpeg' }) },
  },
  errors: ['resource_not_found', 'page_render_failed'],
  handler: async ({ params, query, scope, reply }, deps) => {
    const draft = orNotFound(await findTemplateDraft(deps.db, scope, params.id, deps.clock.now()))
    const page = Number(params.page)
    if (page < 1 || page > draft.pages.length)
      throw new ApiError('resource_not_found', 'The draft has no such page.')
    const image = await draftPageImage(deps, draft.blob_key, page, Number(query.w ?? 800))
    reply.header('content-type', 'image/jpeg')
    const seconds = Math.max(
      0,
      Math.floor((Date.parse(draft.expires_at) - deps.clock.now().getTime()) / 1000),
    )
    reply.header('cache-control', `private, max-age=${seconds}, immutable`)
    return image
  },
})
