// GET /s/{slug}/pages/{document}/{page}?w=800|1200|1600 (and under /embed/{jwt}): one document page
// as a JPEG for the signing page, rendered on the server (pdftoppm) rather than by pdf.js in the browser:
// the page stays a few dozen KB of script instead of the ~700 KB of pdf.js and its worker, and a
// phone downloads one image per page. Rendered once per page and width, then kept in the blob
// store beside the document; two requests for the same image at once render it once.
import { Type } from 'typebox'
import type { Deps } from '../deps.ts'
import { ApiError } from '../errors.ts'
import { type AnyRoute, defineRoute } from '../http/define-route.ts'
import { PageImageError, renderPageImage } from '../pdf/read/page-image.ts'
import { findSubmissionOfSubmitter } from '../submissions/submission-store.ts'
import { findTemplateLayout } from '../templates/template-store.ts'
import { hasVerifiedSession, presentedSessions } from './email-code-session.ts'
import { bySlug, byToken, type Signer } from './signer-routes.ts'
import { endedError, hasEnded, signerState } from './signer-state.ts'

/** Pixel widths offered (srcset): enough for a page column on a desktop, doubled for dense screens. */
export const PAGE_IMAGE_WIDTHS = [800, 1200, 1600] as const

const Index = Type.String({ pattern: '^[0-9]{1,4}$' })
const Query = Type.Object(
  {
    w: Type.Optional(
      Type.Union(
        PAGE_IMAGE_WIDTHS.map((w) => Type.Literal(String(w))),
        { description: 'Pixel width; 800 by default' },
      ),
    ),
  },
  { additionalProperties: false },
)
const Jpeg = Type.Unsafe<Buffer>({ type: 'string', contentMediaType: 'image/jpeg' })

const rendering = new Map<string, Promise<Buffer>>()

async function pageImage(deps: Deps, signer: Signer, documentIndex: number, page: number, width: number) {
  const { submitter } = signer
  const scope = { accountId: submitter.account_id, environment: submitter.environment }
  const submission = await findSubmissionOfSubmitter(deps.db, submitter)
  const template = submission && (await findTemplateLayout(deps.db, scope, submission.template_id))
  if (!submission || !template)
    throw new ApiError('internal_inconsistency', 'The signing link points to a missing submission.')
  // docs/signing.md#when-a-request-is-taken-back: an ended submission's link shows nothing more
  // (the other signers' statuses play no part in whether it ended).
  const state = signerState(submission, submitter, [], deps.clock.now(), true, signer.member)
  if (hasEnded(state)) throw endedError(state)
  // Withheld like the form's documents: in every state, until the e-mail code was verified.
  if (submitter.require_email_2fa === 1 && !hasVerifiedSession(deps, signer.sessions, submitter)) {
    throw new ApiError('email_2fa_required', 'Enter the code sent by e-mail to see the document.')
  }
  const document = template.documents[documentIndex]
  if (!document || page < 1 || page > document.pages.length) {
    throw new ApiError('resource_not_found', 'This document has no such page.')
  }
  const key = `${document.blob_key}.pages/${page}-${width}.jpg`
  const cached = await deps.blobs.get(key)
  if (cached) return cached
  let job = rendering.get(key)
  if (!job) {
    job = (async () => {
      const pdf = await deps.blobs.get(document.blob_key)
      if (!pdf) throw new ApiError('resource_not_found', 'This document is missing from storage.')
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

function imageRoute(via: Signer['via']) {
  const link = via === 'link'
  return defineRoute({
    operationId: link ? 'getSigningPageImage' : 'getEmbedSigningPageImage',
    method: 'GET',
    url: link ? '/s/:slug/pages/:document/:page' : '/embed/:token/pages/:document/:page',
    summary: `One document page as a JPEG, by ${link ? 'signing-URL slug' : 'embed token'}`,
    description:
      "`document` is the index in the form's `documents`, `page` 1-indexed. The crop box as a viewer shows it, rotation applied. Withheld (403 `email_2fa_required`) like the form's documents; 410 `submission_not_active` once the submission is cancelled, expired or declined. `Cache-Control: no-store` for a signer asked for an e-mail code and on every refusal, `private, max-age=3600` otherwise.",
    tag: 'Signing page',
    auth: 'none',
    perIpLimit: true,
    produces: 'image/jpeg',
    schema: {
      params: Type.Object(
        {
          [link ? 'slug' : 'token']: Type.String({ minLength: 1, maxLength: 4096 }),
          document: Index,
          page: Index,
        },
        { additionalProperties: false },
      ),
      querystring: Query,
      response: { 200: Jpeg },
    },
    errors: [
      'resource_not_found',
      'email_2fa_required',
      'submission_not_active',
      'submission_purged',
      'page_render_failed',
      ...(link ? [] : (['invalid_signing_token'] as const)),
    ],
    // biome-ignore lint/suspicious/noExplicitAny: the params differ by credential only
    handler: async ({ params, query, reply, headers }: any, deps: Deps) => {
      // Refusals (an ended submission, a code not verified) are never cached.
      reply.header('cache-control', 'no-store')
      const resolved = link ? await bySlug(deps, params.slug) : await byToken(deps, params.token)
      const signer: Signer = { ...resolved, sessions: presentedSessions(headers) }
      const image = await pageImage(
        deps,
        signer,
        Number(params.document),
        Number(params.page),
        Number(query.w ?? 800),
      )
      reply.header('content-type', 'image/jpeg')
      // A guarded signer's page stays out of every cache: the session that unlocked it may end.
      const guarded = signer.submitter.require_email_2fa === 1
      reply.header('cache-control', guarded ? 'no-store' : 'private, max-age=3600')
      reply.header('x-content-type-options', 'nosniff')
      return image
    },
  })
}

export const PAGE_IMAGE_ROUTES: AnyRoute[] = [imageRoute('link'), imageRoute('embed')]
