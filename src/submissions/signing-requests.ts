// Who is asked to sign now (api-v1 §2.2 signing_order): preserved order mails the first submitter
// still to sign; random mails all of them. Each request is a mail job queued in the transaction.
import type { SubmissionsTable, SubmittersTable, Tx } from '../db/tables.ts'
import type { Deps } from '../deps.ts'
import { enqueueJob } from '../jobs/job-store.ts'
import { MAIL_JOB, type MailMessage } from '../mail/mail-job.ts'
import { signingUrl } from '../signing-page/signing-credentials.ts'

export function nextSigners(
  order: SubmissionsTable['signing_order'],
  submitters: SubmittersTable[],
): SubmittersTable[] {
  const waiting = submitters.filter((s) => s.status === 'pending' || s.status === 'opened')
  return order === 'preserved' ? waiting.slice(0, 1) : waiting
}

function render(
  submission: SubmissionsTable,
  submitter: SubmittersTable,
  url: string,
): Pick<MailMessage, 'subject' | 'text'> {
  const greeting = submitter.name ? `Hello ${submitter.name},` : 'Hello,'
  const body = submission.message_body ?? 'You are invited to sign a document.'
  return {
    subject: submission.message_subject ?? 'Please sign this document',
    text: `${greeting}\n\n${body}\n\nOpen the document and sign it here:\n${url}\n${submission.expires_at ? `\nThis link expires on ${submission.expires_at}.\n` : ''}`,
  }
}

/** Queues the signing requests due now; returns how many were queued. */
export async function queueSigningRequests(
  tx: Tx,
  deps: Deps,
  submission: SubmissionsTable,
  submitters: SubmittersTable[],
): Promise<number> {
  const due = nextSigners(submission.signing_order, submitters).filter((s) => s.send_email === 1)
  for (const submitter of due) {
    const message: MailMessage = {
      to: submitter.email,
      bcc: submission.bcc_email,
      reply_to: submission.reply_to,
      ...render(submission, submitter, signingUrl(deps.config.signingUrl, submitter.signing_slug)),
      submission_id: submission.id,
      submitter_id: submitter.id,
    }
    await enqueueJob(tx, deps, { kind: MAIL_JOB, payload: message, maxAttempts: 5 })
  }
  return due.length
}
