// `paraph mail list` (operations.md §1): the mail outbox, newest first.
import { MAIL_JOB, type MailMessage } from '../mail/mail-job.ts'
import { withDeps } from './context.ts'

export async function mailList(options: { json?: boolean; limit: string }): Promise<void> {
  const limit = Math.min(Math.max(Number(options.limit) || 20, 1), 1000)
  const rows = await withDeps((deps) =>
    deps.db
      .selectFrom('jobs')
      .select(['id', 'state', 'payload', 'created_at'])
      .where('kind', '=', MAIL_JOB)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute(),
  )
  const mails = rows.map((r) => ({
    id: r.id,
    state: r.state,
    created_at: r.created_at,
    ...(JSON.parse(r.payload) as MailMessage),
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
