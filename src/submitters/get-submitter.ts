// GET /v1/submitters/{id} — a submitter with the values filled so far
// (docs/api.md#reading-a-submission-or-a-submitter).
import type { SubmittersTable } from '../db/tables.ts'
import type { Deps } from '../deps.ts'
import { FILE_URL_TTL_MS } from '../documents/file-urls.ts'
import { PURGED_VALUES, parseStoredValues, readableValues } from '../documents/stored-values.ts'
import { orNotFound } from '../errors.ts'
import { IdParams } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { apiMembersOf } from '../submissions/signer-groups.ts'
import { SubmitterWithValues, toApiSubmitter } from '../submissions/submission-schemas.ts'
import { findSubmitter } from '../submissions/submission-store.ts'

export const getSubmitter = defineRoute({
  operationId: 'getSubmitter',
  method: 'GET',
  url: '/v1/submitters/:id',
  summary: 'Get a submitter with its values',
  description:
    'Signed images are given as URLs valid 1 hour; other values as they were filled. `values` is null once the submission is purged.',
  tag: 'Submitters',
  schema: { params: IdParams('sbm'), response: { 200: SubmitterWithValues } },
  errors: ['resource_not_found'],
  handler: async ({ params, scope }, deps) =>
    submitterWithValues(
      deps,
      orNotFound(await findSubmitter(deps.db, scope, params.id), `submitter ${params.id}`),
    ),
})

/** The answer of this route, also given by PATCH /v1/submitters/{id}. */
export async function submitterWithValues(deps: Deps, row: SubmittersTable): Promise<SubmitterWithValues> {
  const expiresAt = new Date(deps.clock.epochMs() + FILE_URL_TTL_MS)
  const values =
    row.values === PURGED_VALUES ? null : await readableValues(deps, parseStoredValues(row.values), expiresAt)
  const scope = { accountId: row.account_id, environment: row.environment }
  const members = await apiMembersOf(deps, deps.db, scope, [row])
  return { ...toApiSubmitter(row, deps.config.signingUrl, members.get(row.id)), values }
}
