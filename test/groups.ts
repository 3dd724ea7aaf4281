// Signer groups in tests (docs/api.md#signer-groups): a submission whose role `couple` any one of two
// people signs, the members of a creation answer as signers the `signer()` helper can act as, and
// the e-mail code mailed to one member.
import assert from 'node:assert/strict'
import { deriveEmailCode } from '../src/signing-page/email-code.ts'
import { emailCodeJob } from '../src/signing-page/email-code-job.ts'
import type { TestApp } from './harness.ts'
import { type CreatedSubmitter, everyTypeBody, jobsOf } from './signing.ts'

export const ANN = 'ann@example.eu'
export const BOB = 'bob@example.eu'

export interface CreatedMember {
  id: string
  email: string
  name: string | null
  status: string
  signing_url: string
  embed_src: string
  signed_at: string | null
}

export interface CreatedGroup {
  id: string
  submitters: Array<CreatedSubmitter & { email: string | null; members?: CreatedMember[] }>
}

/**
 * `everyTypeBody` (every field type for role `first`, a signature for each other role) with the
 * submitter at `groupAt` made a group of Ann and Bob (Bob without a name of his own).
 */
export async function groupBody(
  roles: string[] = ['first'],
  groupAt = 0,
  extra: Record<string, unknown> = {},
  group: Record<string, unknown> = {},
) {
  const body = await everyTypeBody(roles, extra)
  const submitters = body.submitters.map((s, i) => {
    if (i !== groupAt) return s
    const { email: _, ...rest } = s
    return {
      ...rest,
      name: 'The Martins',
      members: [{ email: ANN, name: 'Ann Martin' }, { email: BOB }],
      ...group,
    }
  })
  return { ...body, submitters }
}

/** Member `j` of submitter `i` of a creation answer, as a signer whose links `signer()` uses. */
export function memberOf(created: CreatedGroup, i: number, j: number): CreatedMember {
  const member = created.submitters[i]?.members?.[j]
  assert.ok(member, `no member ${j} of submitter ${i}`)
  return member
}

/** The code of the newest e-mail-code mail queued for this member of a group. */
export async function memberCode(t: TestApp, submitterId: string, memberId: string): Promise<string> {
  const jobs = (await jobsOf(t, emailCodeJob.kind)).filter(
    (j) => j.payload.submitter_id === submitterId && j.payload.member_id === memberId,
  )
  const newest = jobs
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id))
    .at(-1)
  assert.ok(newest, `no code mailed to member ${memberId}`)
  return deriveEmailCode(t.deps.keys.emailCodeSeed, submitterId, newest.id)
}

/** The rows of a group's members, in order. */
export async function memberRows(t: TestApp, submitterId: string) {
  return t.deps.db
    .selectFrom('group_members')
    .selectAll()
    .where('submitter_id', '=', submitterId)
    .orderBy('position')
    .execute()
}
