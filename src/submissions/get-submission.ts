// GET /v1/submissions/{id} — the submission with its submitters
// (docs/api.md#reading-a-submission-or-a-submitter).

import { type Static, Type } from 'typebox'
import type { Executor, Scope } from '../db/tables.ts'
import { ReportedField, reportFields } from '../documents/field-report.ts'
import { orNotFound } from '../errors.ts'
import { IdParams } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { BoundedMap } from '../lib/bounded-map.ts'
import { findTemplateLayout } from '../templates/template-store.ts'
import { apiMembersOf, type Credentials } from './signer-groups.ts'
import { Submission, toApiSubmission } from './submission-schemas.ts'
import { findSubmissionWithSubmitters } from './submission-store.ts'

/** The submission with where each field of its documents is (a backward-compatible addition). */
const SubmissionWithFields = Type.Object(
  {
    ...Submission.properties,
    fields: Type.Array(ReportedField, {
      description:
        'Every field of the documents with its areas in points and fractions (for from_html and from_docx: where each tag landed)',
    }),
  },
  { title: 'SubmissionWithFields' },
)
type SubmissionWithFields = Static<typeof SubmissionWithFields>

/**
 * Each template's field report, by template id. A template's documents and fields never change
 * once it is made (archiving changes its status only) and ids are never reused, so a report is
 * read and built once per process: it was a second query and a third of this route's reading.
 * The cache is reached only through a submission already found in the caller's scope, and a
 * submission's template is of the same account and environment.
 */
const reports = new BoundedMap<string, ReportedField[]>(2000)

async function templateReport(db: Executor, scope: Scope, templateId: string): Promise<ReportedField[]> {
  const known = reports.get(templateId)
  if (known) return known
  const layout = await findTemplateLayout(db, scope, templateId)
  if (!layout) return []
  const report = reportFields(layout.fields, layout.documents)
  reports.set(templateId, report)
  return report
}

/** The submission, its submitters and its fields as the route answers them; undefined when out of scope. */
export async function readSubmission(
  deps: Credentials & { db: Executor; config: { publicUrl: string; signingUrl: string } },
  scope: Scope,
  id: string,
): Promise<SubmissionWithFields | undefined> {
  const { db, config } = deps
  const found = await findSubmissionWithSubmitters(db, scope, id)
  if (!found) return undefined
  // docs/api.md#signer-groups: read only when a submitter is a group.
  const members = await apiMembersOf(deps, db, scope, found.submitters)
  return {
    ...toApiSubmission(found.submission, found.submitters, config, members),
    // docs/privacy.md#purge: a purged submission's field report goes with its documents.
    fields: found.submission.purged_at ? [] : await templateReport(db, scope, found.submission.template_id),
  }
}

export { SubmissionWithFields }

export const getSubmission = defineRoute({
  operationId: 'getSubmission',
  method: 'GET',
  url: '/v1/submissions/:id',
  summary: 'Get a submission',
  tag: 'Submissions',
  schema: { params: IdParams('sub'), response: { 200: SubmissionWithFields } },
  errors: ['resource_not_found'],
  handler: async ({ params, scope }, deps) =>
    orNotFound(await readSubmission(deps, scope, params.id), `submission ${params.id}`),
})
