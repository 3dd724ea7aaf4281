// Submissions to sign and the signer's calls, shared by the signing tests: every field type on
// two pages of different sizes, signers by role, and requests through either credential.
import assert from 'node:assert/strict'
import type { LightMyRequestResponse } from 'fastify'
import type { Environment } from '../src/db/tables.ts'
import { randomBase62 } from '../src/lib/ids.ts'
import { deriveEmailCode } from '../src/signing-page/email-code.ts'
import { emailCodeJob } from '../src/signing-page/email-code-job.ts'
import { recordSignatures } from '../src/usage/signature-ledger.ts'
import { base64, post } from './documents.ts'
import { pdfOfPages } from './fixtures/pdfs.ts'
import { dataUrl, strokePng } from './fixtures/png.ts'
import { errorOf, type TestApp, whatHappened } from './harness.ts'

export interface CreatedSubmitter {
  id: string
  email: string
  signing_url: string
  embed_src: string
}
export interface Created {
  id: string
  submitters: CreatedSubmitter[]
}

export const SIGNATURE = dataUrl(strokePng(300, 100))

const area = (page: number, y: number) => ({ page, x: 0.1, y, w: 0.3, h: 0.05 })

/** One field of every type for role `first` over two pages (A4, then Letter landscape); a signature for each other role. */
export async function everyTypeBody(
  roles: string[] = ['first', 'second'],
  extra: Record<string, unknown> = {},
) {
  const others = roles
    .slice(1)
    .map((role, i) => ({ name: `${role} signature`, role, areas: [area(2, 0.1 + i * 0.1)] }))
  return {
    documents: [
      {
        name: 'Contract',
        pdf_base64: base64(
          await pdfOfPages([
            [595.28, 841.89],
            [792, 612],
          ]),
        ),
        fields: [
          { name: 'Signature', type: 'signature', role: 'first', areas: [area(1, 0.1)] },
          { name: 'Initials', type: 'initials', role: 'first', areas: [area(1, 0.2), area(2, 0.8)] },
          { name: 'Date', type: 'date', role: 'first', areas: [area(1, 0.3)] },
          { name: 'Name', type: 'text', role: 'first', areas: [area(1, 0.4)] },
          { name: 'Amount', type: 'number', role: 'first', required: false, areas: [area(1, 0.5)] },
          { name: 'Agree', type: 'checkbox', role: 'first', areas: [area(1, 0.6)] },
          { name: 'Plan', type: 'radio', role: 'first', options: ['basic', 'pro'], areas: [area(1, 0.7)] },
          { name: 'Country', type: 'select', role: 'first', options: ['FR', 'DE'], areas: [area(2, 0.5)] },
          ...others,
        ],
      },
    ],
    submitters: roles.map((role) => ({ role, email: `${role}@example.eu`, name: role.toUpperCase() })),
    ...extra,
  }
}

export const FIRST_VALUES = {
  Signature: SIGNATURE,
  Initials: dataUrl(strokePng(60, 60)),
  Date: '2026-11-23',
  Name: 'Łukasz Żółć',
  Amount: 1250.5,
  Agree: true,
  Plan: 'pro',
  Country: 'DE',
}

export async function createSubmission(t: TestApp, key: string, body: unknown): Promise<Created> {
  const res = await post(t, key, '/v1/submissions/from_pdf', body)
  assert.equal(res.statusCode, 201, whatHappened(t, res))
  return res.json()
}

const lastSegment = (url: string) => new URL(url).pathname.split('/').pop()!

export type SignerAction =
  | 'open'
  | 'sign'
  | 'decline'
  | 'form'
  | 'progress'
  | 'email_2fa/send'
  | 'email_2fa/verify'

const METHODS: Partial<Record<SignerAction, 'GET' | 'PATCH'>> = { form: 'GET', progress: 'PATCH' }

/** The path of a signer's credential: `/s/{slug}`, or `/embed/{jwt}` with via 'embed'. */
export function signerPath(submitter: CreatedSubmitter, via: 'link' | 'embed' = 'link'): string {
  return via === 'link'
    ? `/s/${lastSegment(submitter.signing_url)}`
    : `/embed/${lastSegment(submitter.embed_src)}`
}

/** A signer's call: `POST /s/{slug}/{action}` (GET `form`, PATCH `progress`; `/embed/{jwt}/…` with via 'embed'). */
export function signer(
  t: TestApp,
  submitter: CreatedSubmitter,
  action: SignerAction,
  body?: unknown,
  via: 'link' | 'embed' = 'link',
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: METHODS[action] ?? 'POST',
    url: `${signerPath(submitter, via)}/${action}`,
    remoteAddress: '203.0.113.7',
    headers: {
      'user-agent': 'SignerBrowser/1.0',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  })
}

/** `everyTypeBody` with the e-mail code required of the signers at these positions. */
export async function guardedBody(
  roles: string[],
  guarded: number[],
  extra: Record<string, unknown> = {},
): Promise<Awaited<ReturnType<typeof everyTypeBody>>> {
  const body = await everyTypeBody(roles, extra)
  body.submitters = body.submitters.map((s, i) =>
    guarded.includes(i) ? ({ ...s, require_email_2fa: true } as typeof s) : s,
  )
  return body
}

/**
 * The code of the newest e-mail-code mail queued for this submitter. The job holds no code (issue
 * #20): it is derived from the job's id, as the job does when it sends the mail.
 */
export async function mailedCode(t: TestApp, submitterId: string): Promise<string> {
  const jobs = (await jobsOf(t, emailCodeJob.kind)).filter((j) => j.payload.submitter_id === submitterId)
  const newest = jobs
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id))
    .at(-1)
  assert.ok(newest, `no code mailed to ${submitterId}`)
  return deriveEmailCode(t.deps.keys.emailCodeSeed, submitterId, newest.id)
}

/** Sends a code, verifies it, and returns the session value and the cookie pair to send back. */
export async function verifiedSession(
  t: TestApp,
  submitter: CreatedSubmitter,
  via: 'link' | 'embed' = 'link',
): Promise<{ session: string; cookie: string }> {
  const sent = await signer(t, submitter, 'email_2fa/send', undefined, via)
  assert.equal(sent.statusCode, 200, sent.body)
  const code = await mailedCode(t, submitter.id)
  const res = await signer(t, submitter, 'email_2fa/verify', { code }, via)
  assert.equal(res.statusCode, 200, res.body)
  const cookie = String(res.headers['set-cookie']).split(';')[0]!
  return { session: res.json().session, cookie }
}

/** The journal of a submission, oldest first. */
export async function eventsOf(t: TestApp, submissionId: string) {
  return t.deps.db
    .selectFrom('events')
    .selectAll()
    .where('submission_id', '=', submissionId)
    .orderBy('id')
    .execute()
}

export async function submissionRow(t: TestApp, id: string) {
  return t.deps.db.selectFrom('submissions').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
}

export async function submitterRow(t: TestApp, id: string) {
  return t.deps.db.selectFrom('submitters').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
}

export async function jobsOf(t: TestApp, kind: string) {
  return (await t.deps.db.selectFrom('jobs').selectAll().where('kind', '=', kind).execute()).map((j) => ({
    ...j,
    payload: JSON.parse(j.payload) as Record<string, unknown>,
  }))
}

/** Asserts a refusal: its status, its code, and optionally its message. */
export function refused(res: LightMyRequestResponse, status: number, code: string, message?: RegExp): void {
  assert.equal(res.statusCode, status, res.body)
  const error = errorOf(res)
  assert.equal(error.code, code)
  if (message) assert.match(error.message, message)
}

/**
 * `count` signatures of an account and environment at one instant, written as a signing move writes
 * them (ledger rows and the daily rollup, in one transaction), without the documents around them.
 */
export async function recordedSignatures(
  t: TestApp,
  accountId: string,
  environment: Environment,
  at: string,
  count = 1,
): Promise<void> {
  const signers = Array.from({ length: count }, () => ({
    id: `sbm_${randomBase62(24)}`,
    account_id: accountId,
    environment,
    submission_id: `sub_${randomBase62(24)}`,
  }))
  await t.deps.db.transaction().execute((tx) => recordSignatures(tx, signers, 'signed', at))
}
