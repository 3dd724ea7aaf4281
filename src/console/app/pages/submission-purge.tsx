// A submission's purge in the console (docs/console.md#purge-legal-holds-and-erasure): the banner and
// the signers by role once it is purged (POST /v1/submissions/{id}/purge, docs/api.md#purge), and
// for an admin on an ended submission the "Purge now…" action, asked first in a dialog that says
// what goes and what stays. A refusal (a legal hold, not ended) is said in words.
import { useState } from 'preact/hooks'
import { ApiFailure, call } from '../api.ts'
import { formatDateTime } from '../format.ts'
import { IdText } from '../id-text.tsx'
import { Link } from '../shell.tsx'
import { fill, type Texts, useTexts } from '../texts.ts'
import type { Role, Submission } from '../types.ts'
import { asFailure, Confirm, useToast } from '../ui.tsx'
import { SignerBadge } from './signers.tsx'

const ENDED_STATUSES = ['completed', 'declined', 'expired', 'cancelled']

/** Whether `role` may purge `submission` now: an admin, an ended submission, not purged yet. */
export const mayPurge = (role: Role, submission: Submission) =>
  role === 'admin' && submission.purged_at === null && ENDED_STATUSES.includes(submission.status)

export function PurgedBanner({ submission }: { submission: Submission }) {
  const { t, language } = useTexts()
  if (!submission.purged_at) return null
  return (
    <section class="panel notice purged" aria-labelledby="purged-title">
      <h2 id="purged-title">
        {fill(t.purged_title, { date: formatDateTime(language, submission.purged_at) })}
      </h2>
      <p>{t.purged_body}</p>
      <p>
        <Link to="/verify">{t.purged_verify_link}</Link>
      </p>
    </section>
  )
}

/** A purged submission's signers: their role and what they did; name and address are gone. */
export function PurgedSigners({ submission }: { submission: Submission }) {
  const { t } = useTexts()
  return (
    <section class="panel" aria-labelledby="signers-title">
      <h2 id="signers-title">{t.signers}</h2>
      <div class="table-wrap">
        <table class="signer-table">
          <thead>
            <tr>
              <th scope="col">{t.role}</th>
              <th scope="col">{t.name}</th>
              <th scope="col">{t.status}</th>
            </tr>
          </thead>
          <tbody>
            {submission.submitters.map((signer) => (
              <tr key={signer.id}>
                <td data-label={t.role}>
                  <span class="row-name">{signer.role}</span>
                  <IdText id={signer.id} />
                </td>
                <td data-label={t.name}>
                  <span class="muted">{t.purged_signer_unknown}</span>
                </td>
                <td data-label={t.status}>
                  <SignerBadge state={{ kind: 'status', status: signer.status }} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  )
}

/** The API's refusal of a purge in words; the code and status stay under it. */
function refusal(t: Texts, error: ApiFailure): ApiFailure {
  const words: Record<string, string> = {
    legal_hold_active: t.purge_refused_held,
    submission_not_finalized: t.purge_refused_active,
  }
  const text = words[error.code]
  return text ? new ApiFailure(error.status, error.code, text, error.retryAfter) : error
}

export function PurgeAction(props: { submission: Submission; onPurged: (purged: Submission) => void }) {
  const { t } = useTexts()
  const toast = useToast()
  const [asking, setAsking] = useState(false)
  return (
    <>
      <button type="button" class="button danger" onClick={() => setAsking(true)}>
        {t.purge_now}
      </button>
      {asking ? (
        <Confirm
          title={t.purge_title}
          body={
            <>
              <p>{t.purge_deletes}</p>
              <p>{t.purge_keeps}</p>
              <p class="warning" role="note">
                <strong>{t.purge_undone}</strong>
              </p>
            </>
          }
          confirm={t.purge_confirm}
          danger
          onClose={() => setAsking(false)}
          onConfirm={async () => {
            try {
              const purged = await call<Submission>('POST', `/v1/submissions/${props.submission.id}/purge`)
              toast(t.purge_done)
              props.onPurged(purged)
              return true
            } catch (error) {
              throw refusal(t, asFailure(error))
            }
          }}
        />
      ) : null}
    </>
  )
}
