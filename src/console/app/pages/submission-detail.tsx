// One submission, named after its template (template-names.ts) with its id beside: status,
// downloads, each signer (link, change of address or name, the signing request sent again, their
// reminders and "Remind now": docs/api.md#reminders), cancel, purge (submission-purge.tsx: a purged
// one shows what remains, its signers by role, no download), and its journal as a timeline
// (submission-timeline.tsx).
import { useEffect, useState } from 'preact/hooks'
import { type ApiFailure, call } from '../api.ts'
import { formatDateTime } from '../format.ts'
import { IdText } from '../id-text.tsx'
import type { PageProps } from '../routes.tsx'
import { Link } from '../shell.tsx'
import { signerStates } from '../signer-turns.ts'
import { useTemplateNames } from '../template-names.ts'
import { fill, type Texts, useTexts } from '../texts.ts'
import type { SigningRequestResent, Submission, SubmissionDocuments, Submitter } from '../types.ts'
import {
  asFailure,
  Badge,
  Confirm,
  CopyButton,
  ErrorNote,
  Loading,
  PageHeader,
  useGet,
  useToast,
} from '../ui.tsx'
import { EditSigner, GroupMembers } from './edit-signer.tsx'
import { SignerBadge, SUBMISSION_TONES, signerAddress, signerName, submissionStatus } from './signers.tsx'
import { mayPurge, PurgeAction, PurgedBanner, PurgedSigners } from './submission-purge.tsx'
import { Timeline } from './submission-timeline.tsx'

const OPEN_STATUSES = ['created', 'sent', 'viewed', 'partially_signed']

/**
 * The signers whose request went out and can be sent again or reminded now (the server’s rules,
 * console/resend/resend-signing-request-rules.ts and submissions/reminder-schedule.ts): still to sign, mailed, and their turn under preserved order.
 */
function resendable(submission: Submission): Set<string> {
  if (!OPEN_STATUSES.includes(submission.status)) return new Set()
  const waiting = submission.submitters.filter((s) => s.status === 'pending' || s.status === 'opened')
  const due = submission.signing_order === 'preserved' ? waiting.slice(0, 1) : waiting
  return new Set(due.filter((s) => s.send_email).map((s) => s.id))
}

/** A refused resend in words: the wait before the next one (429), or the server's reason. */
function resendRefusal(t: Texts, error: ApiFailure): string {
  if (error.status !== 429) return error.message
  const minutes = Math.max(1, Math.ceil(Number(error.retryAfter ?? 60) / 60))
  if (minutes === 1) return t.resend_wait_minute
  if (minutes <= 90) return fill(t.resend_wait_minutes, { n: minutes })
  return fill(t.resend_wait_hours, { n: Math.ceil(minutes / 60) })
}

/** A refused reminder in people's words: the wait before the next one (429), or why not (409). */
function remindRefusal(t: Texts, error: ApiFailure): string {
  if (error.status === 429) {
    const minutes = Math.max(1, Math.ceil(Number(error.retryAfter ?? 60) / 60))
    return minutes === 1 ? t.remind_wait_minute : fill(t.remind_wait_minutes, { n: minutes })
  }
  const words: Record<string, string> = {
    not_your_turn: t.remind_not_your_turn,
    submitter_already_finalized: t.remind_finished,
    submission_already_finalized: t.remind_ended,
    submitter_not_yet_requested: t.remind_no_email,
  }
  return words[error.code] ?? error.message
}

/** A signer's reminders: how many went out, and when the next automatic one is due. */
function Reminders({ signer }: { signer: Submitter }) {
  const { t, language } = useTexts()
  const n = signer.reminders_sent
  const sent = n === 0 ? t.reminders_none : n === 1 ? t.reminders_sent_one : fill(t.reminders_sent, { n })
  return (
    <>
      <span>{sent}</span>
      {signer.next_reminder_at ? (
        <span class="muted reminder-next">
          {fill(t.reminders_next, { date: formatDateTime(language, signer.next_reminder_at) })}
        </span>
      ) : null}
    </>
  )
}

export function SubmissionDetail({ params, session }: PageProps) {
  const { t, language } = useTexts()
  const toast = useToast()
  const submission = useGet<Submission>(`/v1/submissions/${encodeURIComponent(params.id!)}`)
  const [cancelling, setCancelling] = useState(false)
  const [editing, setEditing] = useState<Submitter>()
  const [resending, setResending] = useState<string>()
  const [resendError, setResendError] = useState<string>()
  const [reminding, setReminding] = useState<string>()
  const [changes, setChanges] = useState(0)
  const s = submission.data
  const name = useTemplateNames(s ? [s.template_id] : [])[s?.template_id ?? '']
  const title = name ?? fill(t.submission_title, { id: params.id! })
  useEffect(() => {
    if (name) document.title = `${name} · Paraph`
  }, [name])
  const canResend = s ? resendable(s) : new Set<string>()
  const states = s ? signerStates(s) : undefined
  const resend = async (signer: Submitter) => {
    setResending(signer.id)
    setResendError(undefined)
    try {
      const sent = await call<SigningRequestResent>('POST', `/console/api/submitters/${signer.id}/resend`)
      toast(
        signer.name
          ? fill(t.resend_done_named, { name: signer.name, email: sent.email })
          : fill(t.resend_done, { email: sent.email }),
      )
    } catch (error) {
      setResendError(resendRefusal(t, asFailure(error)))
    } finally {
      setResending(undefined)
    }
  }
  const remind = async (signer: Submitter) => {
    setReminding(signer.id)
    setResendError(undefined)
    try {
      await call<Submitter>('POST', `/v1/submitters/${signer.id}/remind`)
      toast(fill(t.remind_done, { email: signerAddress(signer) }))
      submission.reload()
      setChanges((n) => n + 1)
    } catch (error) {
      setResendError(remindRefusal(t, asFailure(error)))
    } finally {
      setReminding(undefined)
    }
  }
  return (
    <>
      <p class="breadcrumb">
        <Link to="/submissions">← {t.nav_submissions}</Link>
      </p>
      <PageHeader title={title}>
        {s && OPEN_STATUSES.includes(s.status) ? (
          <button type="button" class="button danger" onClick={() => setCancelling(true)}>
            {t.cancel_submission}
          </button>
        ) : null}
        {s && mayPurge(session.member.role, s) ? (
          <PurgeAction
            submission={s}
            onPurged={() => {
              submission.reload()
              setChanges((n) => n + 1)
            }}
          />
        ) : null}
      </PageHeader>
      <p class="page-subtitle">
        <IdText id={params.id!} />
      </p>
      <ErrorNote error={submission.error} />
      {!s && !submission.error ? <Loading /> : null}
      {s ? (
        <>
          <PurgedBanner submission={s} />
          <dl class="facts">
            <div>
              <dt>{t.status}</dt>
              <dd>
                <Badge tone={SUBMISSION_TONES[s.status] ?? 'neutral'}>{submissionStatus(t, s.status)}</Badge>
              </dd>
            </div>
            <div>
              <dt>{t.created}</dt>
              <dd>{formatDateTime(language, s.created_at)}</dd>
            </div>
            <div>
              <dt>{t.completed}</dt>
              <dd>{formatDateTime(language, s.completed_at)}</dd>
            </div>
            <div>
              <dt>{t.expires}</dt>
              <dd>{formatDateTime(language, s.expires_at)}</dd>
            </div>
            <div>
              <dt>{t.template}</dt>
              <dd>
                {name ? <span class="row-name">{name}</span> : null}
                <IdText id={s.template_id} />
              </dd>
            </div>
          </dl>
          {s.purged_at ? null : <Downloads submission={s} />}
          {s.purged_at ? (
            <PurgedSigners submission={s} />
          ) : (
            <section class="panel" aria-labelledby="signers-title">
              <h2 id="signers-title">{t.signers}</h2>
              {resendError ? (
                <p class="error-note" role="alert">
                  {resendError}
                </p>
              ) : null}
              <div class="table-wrap">
                <table class="signer-table">
                  <thead>
                    <tr>
                      <th scope="col">{t.role}</th>
                      <th scope="col">{t.name}</th>
                      <th scope="col">{t.email}</th>
                      <th scope="col">{t.status}</th>
                      <th scope="col">{t.reminders}</th>
                      <th scope="col">
                        <span class="visually-hidden">{t.actions}</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {s.submitters.map((signer) => (
                      <tr key={signer.id}>
                        <td data-label={t.role}>{signer.role}</td>
                        <td data-label={t.name}>
                          {signer.name || signer.members ? (
                            <span class="row-name">{signerName(signer)}</span>
                          ) : (
                            <span class="muted">—</span>
                          )}
                          <IdText id={signer.id} />
                        </td>
                        <td data-label={t.email}>
                          {signer.members ? (
                            <GroupMembers signer={signer} open={OPEN_STATUSES.includes(s.status)} />
                          ) : (
                            signer.email
                          )}
                        </td>
                        <td data-label={t.status}>
                          <SignerBadge
                            state={states?.get(signer.id) ?? { kind: 'status', status: signer.status }}
                          />
                        </td>
                        <td class="reminders" data-label={t.reminders}>
                          <Reminders signer={signer} />
                        </td>
                        <td class="actions">
                          {signer.signing_url && OPEN_STATUSES.includes(s.status) ? (
                            <CopyButton text={signer.signing_url} label={t.copy_signing_link} />
                          ) : null}
                          {canResend.has(signer.id) ? (
                            <button
                              type="button"
                              class="button small"
                              aria-label={fill(t.resend_label, { email: signerAddress(signer) })}
                              disabled={resending === signer.id}
                              onClick={() => resend(signer)}
                            >
                              {t.resend}
                            </button>
                          ) : null}
                          {canResend.has(signer.id) ? (
                            <button
                              type="button"
                              class="button small"
                              aria-label={fill(t.remind_label, { email: signerAddress(signer) })}
                              disabled={reminding === signer.id}
                              onClick={() => remind(signer)}
                            >
                              {t.remind_now}
                            </button>
                          ) : null}
                          {OPEN_STATUSES.includes(s.status) && signer.status !== 'signed' ? (
                            <button
                              type="button"
                              class="button small"
                              aria-label={`${t.edit_signer} ${signerAddress(signer)}`}
                              onClick={() => setEditing(signer)}
                            >
                              {t.edit_signer}
                            </button>
                          ) : null}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </section>
          )}
          {/* Keyed by what the page changed: a cancel or a signer's change shows in the journal at once. */}
          <Timeline key={changes} submission={s} />
        </>
      ) : null}
      {cancelling && s ? (
        <Confirm
          title={t.cancel_submission}
          body={<p>{t.cancel_submission_body}</p>}
          confirm={t.cancel_submission}
          danger
          onClose={() => setCancelling(false)}
          onConfirm={async () => {
            await call('DELETE', `/v1/submissions/${s.id}`)
            toast(name ? fill(t.cancelled_named_toast, { name }) : t.cancelled_toast)
            submission.reload()
            setChanges((n) => n + 1)
            return true
          }}
        />
      ) : null}
      {editing ? (
        <EditSigner
          signer={editing}
          onClose={() => setEditing(undefined)}
          onSaved={(saved) => {
            setEditing(undefined)
            toast(fill(t.signer_saved_named, { name: signerName(saved) }))
            submission.reload()
            setChanges((n) => n + 1)
          }}
        />
      ) : null}
    </>
  )
}

function Downloads({ submission }: { submission: Submission }) {
  const { t } = useTexts()
  const docs = useGet<SubmissionDocuments>(`/v1/submissions/${submission.id}/documents`)
  return (
    <section class="panel" aria-labelledby="downloads-title">
      <h2 id="downloads-title">{t.downloads}</h2>
      <ErrorNote error={docs.error} />
      {docs.data ? (
        <ul class="downloads">
          {docs.data.documents.map((d) => (
            <li key={d.name}>
              <a href={d.original_pdf_url} download>
                {fill(t.download_original, { name: d.name })}
              </a>
            </li>
          ))}
          {docs.data.signed_pdf_url ? (
            <li>
              <a href={docs.data.signed_pdf_url} download>
                {t.download_signed}
              </a>
            </li>
          ) : (
            <li class="muted">
              {OPEN_STATUSES.includes(submission.status)
                ? t.signed_not_yet
                : submission.status === 'completed'
                  ? t.signed_preparing
                  : t.signed_never}
            </li>
          )}
          {submission.status === 'completed' ? (
            <li>
              <a href={`/v1/submissions/${submission.id}/audit_log`} download>
                {t.download_audit}
              </a>
            </li>
          ) : null}
        </ul>
      ) : docs.error ? null : (
        <Loading />
      )}
    </section>
  )
}
