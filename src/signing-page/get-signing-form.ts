// GET /s/{slug}/form and GET /embed/{jwt}/form — operations.md §3: the signer's view, read-only
// (mail scanners prefetch links: nothing here changes anything).
import { defineSignerRoutes } from './signer-routes.ts'
import { SigningForm, signingForm } from './signing-form.ts'

export const [getSigningForm, getEmbedSigningForm] = defineSignerRoutes({
  operationIds: ['getSigningForm', 'getEmbedSigningForm'],
  method: 'GET',
  action: 'form',
  summary: "The signing page's data",
  response: SigningForm,
  errors: [],
  handler: async (_input, { submitter }, deps) => signingForm(deps, submitter),
})
