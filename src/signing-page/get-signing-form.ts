// GET /s/{slug}/form and GET /embed/{jwt}/form — docs/api.md#the-signers-form: the signer's view,
// read-only (mail scanners prefetch links: nothing here changes anything).
import type { AnyRoute } from '../http/define-route.ts'
import { defineSignerRoutes } from './signer-routes.ts'
import { SigningForm, signingForm } from './signing-form.ts'

const [bySlug, byToken] = defineSignerRoutes({
  operationIds: ['getSigningForm', 'getEmbedSigningForm'],
  method: 'GET',
  action: 'form',
  summary: "The signing page's data",
  description:
    'For a signer asked for an e-mail code, `documents`, `fields`, `signed_pdf_url` and `current_pdf_url` stay empty until the request presents the session of `email_2fa/verify`; `state` is `email_2fa_required` while the submission is active, otherwise its ended state. Once the submission is cancelled, expired or declined, the link reveals nothing more: `documents` and `fields` empty, the URLs null. Never cached (`Cache-Control: no-store`).',
  response: SigningForm,
  errors: [],
  responseHeaders: { 'Cache-Control': '`no-store`, on every answer: the form changes and can be revoked.' },
  handler: async (_input, { submitter, sessions, member }, deps) =>
    signingForm(deps, submitter, sessions, member),
})

/**
 * `no-store` on every answer, refusals of the link included — set before the
 * credential is even resolved, so no cache keeps a form the sender may revoke.
 */
function neverCached(route: AnyRoute): AnyRoute {
  return {
    ...route,
    handler: (input, deps) => {
      input.reply.header('cache-control', 'no-store')
      return route.handler(input, deps)
    },
  }
}

export const getSigningForm = neverCached(bySlug)
export const getEmbedSigningForm = neverCached(byToken)
