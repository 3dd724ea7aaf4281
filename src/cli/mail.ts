// `paraph mail list` (docs/operations.md#the-paraph-command): the mail outbox, newest first. An
// e-mail code is never stored, the outbox included: its mail is written again here, the code
// derived from the job's id under PARAPH_SECRET as the job does when it sends it. Without SMTP_URL
// (the embedded default) this is how a developer reads a code; whoever runs this command holds the
// secret anyway.
import type { Deps } from '../deps.ts'
import { type MailMessage, mailJob } from '../mail/mail-job.ts'
import { renderEmailCodeMail } from '../mail/messages/email-code.ts'
import { deriveEmailCode } from '../signing-page/email-code.ts'
import { type EmailCodeJobPayload, emailCodeJob } from '../signing-page/email-code-job.ts'
import { withDeps } from './context.ts'

function listed(deps: Deps, row: { id: string; kind: string; payload: string }): MailMessage {
  if (row.kind !== emailCodeJob.kind) return JSON.parse(row.payload) as MailMessage
  const payload = JSON.parse(row.payload) as EmailCodeJobPayload
  const rendered = renderEmailCodeMail({
    language: payload.language,
    documentName: payload.document_name,
    senderName: payload.sender_name,
    signerName: payload.to_name,
    code: deriveEmailCode(deps.keys.emailCodeSeed, payload.submitter_id, row.id),
  })
  return {
    kind: payload.kind,
    to: payload.to,
    bcc: null,
    reply_to: null,
    subject: rendered.subject,
    text: rendered.text,
    submission_id: payload.submission_id,
    submitter_id: payload.submitter_id,
  }
}

export async function mailList(options: { json?: boolean; limit: string }): Promise<void> {
  const limit = Math.min(Math.max(Number(options.limit) || 20, 1), 1000)
  const mails = await withDeps(async (deps) => {
    const rows = await deps.db
      .selectFrom('jobs')
      .select(['id', 'kind', 'state', 'payload', 'created_at'])
      .where('kind', 'in', [mailJob.kind, emailCodeJob.kind])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute()
    return rows.map((r) => ({ id: r.id, state: r.state, created_at: r.created_at, ...listed(deps, r) }))
  })
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
