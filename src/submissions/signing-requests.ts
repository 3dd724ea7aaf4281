// Who is asked to sign now (api-v1 §2.2 signing_order): preserved order mails the first submitter
// still to sign — the next one once the one before has signed (sign-document.ts calls this again);
// random mails all of them at once. Each request is a mail job queued in the caller's transaction,
// rendered there (mail/messages/signing-request.ts), so what was decided is what is sent.
import type { SubmissionsTable, SubmittersTable, Tx } from '../db/tables.ts'
import type { Deps } from '../deps.ts'
import { enqueueJob } from '../jobs/job-store.ts'
import { MAIL_JOB, MAIL_MAX_ATTEMPTS, type MailMessage } from '../mail/mail-job.ts'
import { renderSigningRequest } from '../mail/messages/signing-request.ts'
import { signingUrl } from '../signing-page/signing-credentials.ts'

export function nextSigners(
  order: SubmissionsTable['signing_order'],
  submitters: SubmittersTable[],
): SubmittersTable[] {
  const waiting = submitters.filter((s) => s.status === 'pending' || s.status === 'opened')
  return order === 'preserved' ? waiting.slice(0, 1) : waiting
}

/** The name mails give the document: the template's (an inline submission's is its first document's). */
export async function documentNameOf(
  tx: Tx,
  submission: Pick<SubmissionsTable, 'template_id' | 'account_id' | 'environment'>,
): Promise<string> {
  const row = await tx
    .selectFrom('templates')
    .select('name')
    .where('id', '=', submission.template_id)
    .where('account_id', '=', submission.account_id)
    .where('environment', '=', submission.environment)
    .executeTakeFirst()
  return row?.name ?? 'Document'
}

export function signingRequestMessage(
  deps: Pick<Deps, 'config'>,
  submission: SubmissionsTable,
  submitter: SubmittersTable,
  documentName: string,
): MailMessage {
  const url = signingUrl(deps.config.signingUrl, submitter.signing_slug)
  const rendered = renderSigningRequest({
    documentName,
    submissionId: submission.id,
    signer: { name: submitter.name, email: submitter.email },
    signingUrl: url,
    expiresAt: submission.expires_at,
    message: { subject: submission.message_subject, body: submission.message_body },
    hasReplyTo: submission.reply_to !== null,
  })
  return {
    kind: 'signing_request',
    to: submitter.email,
    to_name: submitter.name,
    bcc: submission.bcc_email,
    reply_to: submission.reply_to,
    ...rendered,
    submission_id: submission.id,
    submitter_id: submitter.id,
  }
}

/** Queues the signing requests due now (send_email honoured per submitter); returns how many. */
export async function queueSigningRequests(
  tx: Tx,
  deps: Deps,
  submission: SubmissionsTable,
  submitters: SubmittersTable[],
): Promise<number> {
  const due = nextSigners(submission.signing_order, submitters).filter((s) => s.send_email === 1)
  if (due.length === 0) return 0
  const documentName = await documentNameOf(tx, submission)
  for (const submitter of due) {
    await enqueueJob(tx, deps, {
      kind: MAIL_JOB,
      payload: signingRequestMessage(deps, submission, submitter, documentName),
      maxAttempts: MAIL_MAX_ATTEMPTS,
    })
  }
  return due.length
}
