// PATCH /v1/submitters/{id} on a signer group (docs/api.md#signer-groups): what the request may
// change (its `members`, its `phone`; never `email` or `name`, which are the members'), and the
// replacement of its members in the route's transaction — new people get a link and, when it is the
// group's turn, the signing request; removed people's links end; the change is journaled.
import type { SubmissionsTable, SubmittersTable, Tx } from '../db/tables.ts'
import type { Deps } from '../deps.ts'
import { fieldError } from '../errors.ts'
import { appendEvent } from '../events/event-store.ts'
import { toIso } from '../lib/clock.ts'
import { membersOf, replaceGroupMembers } from '../submissions/group-member-store.ts'
import { checkDistinctMembers, replaceMembers } from '../submissions/group-rules.ts'
import { actingAs, type MemberInput, newMemberRows } from '../submissions/signer-groups.ts'
import { nextSigners, queueRequestsTo } from '../submissions/signing-requests.ts'

export interface GroupPatch {
  email?: string
  name?: string | null
  members?: MemberInput[]
}

/** 422 naming the field a request may not change on this submitter (a group, or a signer who is none). */
export function checkGroupPatch(submitter: Pick<SubmittersTable, 'grouped'>, body: GroupPatch): void {
  if (submitter.grouped !== 1) {
    if (body.members !== undefined) {
      throw fieldError(
        'invalid_request',
        'members',
        'this submitter is one signer, not a signer group; change its `email` instead.',
      )
    }
    return
  }
  for (const field of ['email', 'name'] as const) {
    if (body[field] !== undefined) {
      throw fieldError(
        'invalid_request',
        field,
        `this submitter is a signer group: its ${field} is that of the member who signs; replace \`members\` instead (each may have a \`name\`).`,
      )
    }
  }
  if (body.members !== undefined) checkDistinctMembers(body.members, 'members')
}

/**
 * The group's members become `requested`; false when nobody was added, removed, renamed or moved.
 * New members are mailed the signing request when it is the group's turn and it is sent e-mail.
 */
export async function changeGroupMembers(
  tx: Tx,
  deps: Deps,
  context: { submission: SubmissionsTable; everyone: SubmittersTable[]; group: SubmittersTable },
  requested: MemberInput[],
  requestId: string,
): Promise<boolean> {
  const { submission, everyone, group } = context
  const scope = { accountId: group.account_id, environment: group.environment }
  const current = await membersOf(tx, scope, [group.id])
  const change = replaceMembers(current, requested)
  const moved = change.kept.some(
    ({ member, name, position }) => member.name !== name || member.position !== position,
  )
  if (change.added.length === 0 && change.removed.length === 0 && !moved) return false
  const at = toIso(deps.clock.now())
  const added = change.added.flatMap((m) =>
    newMemberRows(group, [m], m.name ?? null, deps.ids, at, m.position),
  )
  await replaceGroupMembers(tx, group, { ...change, added }, at)
  await appendEvent(tx, deps, scope, {
    type: 'submitter.updated',
    submissionId: submission.id,
    submitterId: group.id,
    data: {
      submitter_id: group.id,
      changed: ['members'],
      members: { added: added.map((m) => m.email), removed: change.removed.map((m) => m.email) },
      request_id: requestId,
    },
  })
  const due = nextSigners(submission.signing_order, everyone).some((s) => s.id === group.id)
  if (due && group.send_email === 1) {
    await queueRequestsTo(
      tx,
      deps,
      submission,
      added.map((m) => actingAs(group, m)),
    )
  }
  return true
}
