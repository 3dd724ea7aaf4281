// PATCH /v1/submitters/{id} — docs/api.md#changing-a-submitter: change a submitter's `email`,
// `phone` or `name` while they are `pending` or `opened` (else 409 submitter_already_finalized) and
// the submission has not ended (else 409 submission_already_finalized). The status is unchanged.
// A new address gets a new signing link — the old one then answers like an unknown link — and,
// when it is that signer's turn and their `send_email` allows, a new signing request to the new
// address. The change is journaled as `submitter.updated` (journal-only: never a webhook) with the
// changed field names and the old and new address, so the audit trail shows it. A signer group
// replaces its `members` instead (group-member-changes.ts). One transaction, with the submission
// locked like a signer's act.
import { Type } from 'typebox'
import { ApiError, orNotFound } from '../errors.ts'
import { appendEvent } from '../events/event-store.ts'
import { Email, IdParams, Nullable } from '../http/common-schemas.ts'
import { defineRoute } from '../http/define-route.ts'
import { toIso } from '../lib/clock.ts'
import { checkDeliverable } from '../mail/address-delivery.ts'
import { GroupMembersInput, SubmitterName, SubmitterPhone } from '../submissions/creation-schemas.ts'
import { newSigningSlug } from '../submissions/signing-credentials.ts'
import { nextSigners, queueSigningRequests } from '../submissions/signing-requests.ts'
import { SubmitterWithValues } from '../submissions/submission-schemas.ts'
import { lockSubmitterInScope } from '../submissions/submission-store.ts'
import { submitterWithValues } from './get-submitter.ts'
import { changeGroupMembers, checkGroupPatch } from './group-member-changes.ts'
import { contactChange, patchRefusal } from './submitter-changes.ts'
import { updateSubmitterContact } from './submitter-store.ts'

const UpdateSubmitterRequest = Type.Object(
  {
    email: Type.Optional({
      ...Email,
      description:
        'New address, kept as written in lower case (docs/api.md#e-mail-addresses): a new `signing_url`; the old link stops working. The same address in another case or domain spelling (xn--) changes nothing',
    }),
    phone: Type.Optional(Nullable({ ...SubmitterPhone, description: 'New phone number; null removes it' })),
    name: Type.Optional(Nullable({ ...SubmitterName, description: 'New name; null removes it' })),
    members: Type.Optional({
      ...GroupMembersInput,
      description:
        'Only for a signer group (docs/api.md#signer-groups), which takes no `email` or `name`: its people, replaced whole. A person already in it (same address) keeps their link (and name, unless one is given); a new one gets a link and, when it is the group’s turn, the signing request; a person left out loses theirs',
    }),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    title: 'UpdateSubmitterRequest',
    description:
      'At least one of `email`, `phone`, `name` — or `members` for a signer group; any other key is refused (422)',
  },
)

const changedMeanwhile = () =>
  new ApiError('submitter_already_finalized', 'This submitter finished while it was being changed.')

export const updateSubmitter = defineRoute({
  operationId: 'updateSubmitter',
  method: 'PATCH',
  url: '/v1/submitters/:id',
  summary: "Change a submitter's e-mail, phone or name, or a signer group's members",
  description:
    'Only while the submitter is `pending` or `opened` (409 `submitter_already_finalized`) and the submission has not ended (409 `submission_already_finalized`, also past `expires_at`). A new e-mail address gets a new `signing_url` (the old link answers 404 like an unknown one, its e-mail code and signer sessions end) and, when it is this signer’s turn and `send_email` is on, a new signing request. Values equal to the stored ones change nothing. A signer group (docs/api.md#signer-groups) changes its `members` (and `phone`), never `email` or `name` (422): new people get a link and, on the group’s turn, the request; people left out lose their link. Journaled as `submitter.updated` (journal only) and shown in the audit trail. Answers the submitter as `GET /v1/submitters/{id}` does. No Idempotency-Key: repeating it is harmless.',
  tag: 'Submitters',
  schema: { params: IdParams('sbm'), body: UpdateSubmitterRequest, response: { 200: SubmitterWithValues } },
  errors: [
    'resource_not_found',
    'submitter_already_finalized',
    'submission_already_finalized',
    'email_not_deliverable',
  ],
  handler: async ({ params, body, scope, requestId }, deps) => {
    await checkDeliverable(deps.mailer, [
      { param: 'email', email: body.email },
      ...(body.members ?? []).map((m, j) => ({ param: `members[${j}].email`, email: m.email })),
    ])
    const updated = await deps.db.transaction().execute(async (tx) => {
      const locked = orNotFound(await lockSubmitterInScope(tx, scope, params.id), `submitter ${params.id}`)
      const { submission, everyone, submitter: current } = locked
      checkGroupPatch(current, body)
      const refusal = patchRefusal(current, submission, deps.clock.now())
      if (refusal) throw refusal
      if (body.members) {
        const group = { submission, everyone, group: current }
        await changeGroupMembers(tx, deps, group, body.members, requestId)
      }
      const change = contactChange(current, body, newSigningSlug)
      if (change.changed.length === 0) return current
      const at = toIso(deps.clock.now())
      const row = await updateSubmitterContact(tx, scope, current.id, change.set, at)
      if (!row) throw changedMeanwhile()
      await appendEvent(tx, deps, scope, {
        type: 'submitter.updated',
        submissionId: submission.id,
        submitterId: row.id,
        data: {
          submitter_id: row.id,
          changed: change.changed,
          ...(change.email ? { email: change.email } : {}),
          request_id: requestId,
        },
      })
      const after = everyone.map((s) => (s.id === row.id ? row : s))
      const due = nextSigners(submission.signing_order, after).some((s) => s.id === row.id)
      if (change.email && due) await queueSigningRequests(tx, deps, submission, [row])
      return row
    })
    return submitterWithValues(deps, updated)
  },
})
