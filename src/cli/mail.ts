// `paraph mail list` (operations.md §1): the mail outbox, newest first. An e-mail code's mail is
// listed without its code, which is never stored (issue #20): only who it went to and about what.
import { MAIL_JOB, type MailMessage } from '../mail/mail-job.ts'
import { EMAIL_CODE_JOB, type EmailCodeJobPayload } from '../signing-page/email-code-job.ts'
import { withDeps } from './context.ts'

function listed(kind: string, payload: string): MailMessage {
  if (kind !== EMAIL_CODE_JOB) return JSON.parse(payload) as MailMessage
  const code = JSON.parse(payload) as EmailCodeJobPayload
  return {
    kind: code.kind,
    to: code.to,
    bcc: null,
    reply_to: null,
    subject: `E-mail code to open “${code.document_name}”`,
    text: '(the code is not kept: the mail is written when it is sent)',
    submission_id: code.submission_id,
    submitter_id: code.submitter_id,
  }
}

export async function mailList(options: { json?: boolean; limit: string }): Promise<void> {
  const limit = Math.min(Math.max(Number(options.limit) || 20, 1), 1000)
  const rows = await withDeps((deps) =>
    deps.db
      .selectFrom('jobs')
      .select(['id', 'kind', 'state', 'payload', 'created_at'])
      .where('kind', 'in', [MAIL_JOB, EMAIL_CODE_JOB])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute(),
  )
  const mails = rows.map((r) => ({
    id: r.id,
    state: r.state,
    created_at: r.created_at,
    ...listed(r.kind, r.payload),
  }))
  if (options.json) {
    console.log(JSON.stringify(mails))
    return
  }
  if (mails.length === 0) console.log('The mail outbox is empty.')
  for (const m of mails) {
    console.log(
      `${m.created_at}  ${m.state.padEnd(7)}  to ${m.to}  "${m.subject}"  (${m.submission_id ?? m.webhook_endpoint_id ?? 'account'})`,
    )
    console.log(m.text.replace(/^/gm, '    '))
  }
}
