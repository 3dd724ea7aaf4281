// The completion notice: when the submission completes, every submitter who has not
// opted out of e-mail (`send_email: false`) is told, with a link to their own signing page, which
// then shows the completed document and its download. Queued in the completion transaction
// (finalize-submission.ts), which runs once per submission: exactly one notice per submitter.
import type { SubmissionsTable, Tx } from '../db/tables.ts'
import type { Deps } from '../deps.ts'
import { enqueueMail, type MailMessage } from '../mail/mail-job.ts'
import { renderCompleted } from '../mail/messages/completed.ts'
import { mailTexts } from '../mail/messages/texts.ts'
import { signingUrl } from './signing-credentials.ts'
import { accountNameOf, documentNameOf } from './signing-requests.ts'

/** Queues one notice per submitter with e-mail on (pre-signed ones too: they are parties); returns how many. */
export async function queueCompletionMails(
  tx: Tx,
  deps: Deps,
  submission: SubmissionsTable,
): Promise<number> {
  const submitters = await tx
    .selectFrom('submitters')
    .selectAll()
    .where('submission_id', '=', submission.id)
    .where('account_id', '=', submission.account_id)
    .where('environment', '=', submission.environment)
    .where('send_email', '=', 1)
    .orderBy('position')
    .execute()
  if (submitters.length === 0) return 0
  const documentName = await documentNameOf(tx, submission)
  const sender = { account: await accountNameOf(tx, submission), replyTo: submission.reply_to }
  for (const submitter of submitters) {
    const message: MailMessage = {
      kind: 'completed',
      to: submitter.email,
      to_name: submitter.name,
      bcc: null,
      reply_to: submission.reply_to,
      ...renderCompleted(
        {
          documentName,
          signer: { name: submitter.name },
          signingUrl: signingUrl(deps.config.signingUrl, submitter.signing_slug),
          sender,
        },
        mailTexts(deps.config.mailLanguage),
      ),
      submission_id: submission.id,
      submitter_id: submitter.id,
    }
    await enqueueMail(tx, deps, message)
  }
  return submitters.length
}
