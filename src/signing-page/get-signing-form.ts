// GET /s/{slug}/form and GET /embed/{jwt}/form — operations.md §3: the signer's view, read-only
// (mail scanners prefetch links: nothing here changes anything).
import { defineSignerRoutes } from './signer-routes.ts'
import { SigningForm, signingForm } from './signing-form.ts'

export const [getSigningForm, getEmbedSigningForm] = defineSignerRoutes({
  operationIds: ['getSigningForm', 'getEmbedSigningForm'],
  method: 'GET',
  action: 'form',
  summary: "The signing page's data",
  description:
    'For a signer asked for an e-mail code, `documents` and `fields` stay empty until the request presents the session of `email_2fa/verify`; `state` is `email_2fa_required` while the submission is active, otherwise its ended state.',
  response: SigningForm,
  errors: [],
  handler: async (_input, { submitter, sessions }, deps) => signingForm(deps, submitter, sessions),
})
