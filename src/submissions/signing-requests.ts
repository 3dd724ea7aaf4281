// Who is asked to sign now (signing_order: docs/api.md#mail): preserved order mails the first
// submitter still to sign — the next one once the one before has signed (sign-document.ts calls
// this again); random mails all of them at once. Each request is a mail job queued in the caller's
// transaction, rendered there (mail/messages/signing-request.ts), so what was decided is what is
// sent. The request names the account that asks; `bcc_email` gets a notice of its own
// (signing-request-copy.ts), never the signer's mail, whose link is the signer's credential.
import { findAccount } from '../accounts/account-store.ts'
import type { Executor, SubmissionsTable, SubmittersTable, Tx } from '../db/tables.ts'
import type { Deps } from '../deps.ts'
import { enqueueMail, type MailMessage } from '../mail/mail-job.ts'
import { renderSigningRequest } from '../mail/messages/signing-request.ts'
import { renderSigningRequestCopy } from '../mail/messages/signing-request-copy.ts'
import { mailTexts } from '../mail/messages/texts.ts'
import { membersOfGroups } from './group-member-store.ts'
import { actingAs } from './signer-groups.ts'
import { signingUrl } from './signing-credentials.ts'

export function nextSigners(
  order: SubmissionsTable['signing_order'],
  submitters: SubmittersTable[],
): SubmittersTable[] {
  const waiting = submitters.filter((s) => s.status === 'pending' || s.status === 'opened')
  return order === 'preserved' ? waiting.slice(0, 1) : waiting
}

/** The name mails give the document: the template's (an inline submission's is its first document's). */
export async function documentNameOf(
  tx: Executor,
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

/** The name mails give the account a submission belongs to: who asks. */
export async function accountNameOf(
  tx: Tx,
  submission: Pick<SubmissionsTable, 'account_id'>,
): Promise<string> {
  return (await findAccount(tx, submission.account_id))?.name ?? ''
}

/** What the request mails say besides the signer: the document, and who asks. */
export interface RequestContext {
  documentName: string
  accountName: string
}

export function signingRequestMessage(
  deps: Pick<Deps, 'config'>,
  submission: SubmissionsTable,
  submitter: SubmittersTable,
  context: RequestContext,
  { reminder = false }: { reminder?: boolean } = {},
): MailMessage {
  const url = signingUrl(deps.config.signingUrl, submitter.signing_slug)
  const rendered = renderSigningRequest(
    {
      documentName: context.documentName,
      submissionId: submission.id,
      signer: { name: submitter.name, email: submitter.email },
      signingUrl: url,
      expiresAt: submission.expires_at,
      message: { subject: submission.message_subject, body: submission.message_body },
      sender: { account: context.accountName, replyTo: submission.reply_to },
      reminder,
    },
    mailTexts(deps.config.mailLanguage),
  )
  return {
    kind: reminder ? 'signing_request_reminder' : 'signing_request',
    to: submitter.email,
    to_name: submitter.name,
    bcc: null,
    reply_to: submission.reply_to,
    ...rendered,
    submission_id: submission.id,
    submitter_id: submitter.id,
  }
}

/** The notice to `bcc_email` that `submitter` was asked to sign: no link, no sender's message. */
export function signingRequestCopyMessage(
  deps: Pick<Deps, 'config'>,
  submission: SubmissionsTable & { bcc_email: string },
  submitter: SubmittersTable,
  context: RequestContext,
): MailMessage {
  const rendered = renderSigningRequestCopy(
    {
      documentName: context.documentName,
      submissionId: submission.id,
      signer: { name: submitter.name, email: submitter.email },
      expiresAt: submission.expires_at,
      sender: { account: context.accountName, replyTo: submission.reply_to },
    },
    mailTexts(deps.config.mailLanguage),
  )
  return {
    kind: 'signing_request_copy',
    to: submission.bcc_email,
    bcc: null,
    reply_to: null,
    ...rendered,
    submission_id: submission.id,
    submitter_id: submitter.id,
  }
}

/**
 * Who a mail to these signers goes to: each signer, and for a signer group each member still
 * pending, as acting for it (their own address, name and link: docs/api.md#signer-groups).
 */
export async function recipientsOf(db: Executor, signers: SubmittersTable[]): Promise<SubmittersTable[]> {
  const groups = await membersOfGroups(db, signers)
  return signers.flatMap((s) =>
    s.grouped === 1
      ? (groups.get(s.id) ?? []).filter((m) => m.status === 'pending').map((m) => actingAs(s, m))
      : [s],
  )
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
  await queueRequestsTo(tx, deps, submission, await recipientsOf(tx, due))
  return due.length
}

/**
 * The signing request to each of `recipients` (signers, or group members as acting for their
 * group), with its notice to `bcc_email`.
 */
export async function queueRequestsTo(
  tx: Tx,
  deps: Deps,
  submission: SubmissionsTable,
  recipients: SubmittersTable[],
): Promise<void> {
  if (recipients.length === 0) return
  const context = {
    documentName: await documentNameOf(tx, submission),
    accountName: await accountNameOf(tx, submission),
  }
  const { bcc_email } = submission
  for (const submitter of recipients) {
    const messages = [signingRequestMessage(deps, submission, submitter, context)]
    if (bcc_email)
      messages.push(signingRequestCopyMessage(deps, { ...submission, bcc_email }, submitter, context))
    for (const payload of messages) {
      await enqueueMail(tx, deps, payload)
    }
  }
}
