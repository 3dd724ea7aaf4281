// Submissions: filter by status, search by a signer's e-mail (GET /v1/submitters?email= gives their
// submissions), those of one bulk send (`?bulk_send_id=` in the address, passed to
// GET /v1/submissions: the link of a "Send to many" job page), each row named after its template (template-names.ts) with its id beside, and its
// signers' progress; cursor paging.
import { useEffect, useState } from 'preact/hooks'
import { get, type Page, query } from '../api.ts'
import { formatDateTime } from '../format.ts'
import { IdText } from '../id-text.tsx'
import type { PageProps } from '../routes.tsx'
import { Link } from '../shell.tsx'
import { useTemplateNames } from '../template-names.ts'
import { fill, useTexts } from '../texts.ts'
import { SUBMISSION_STATUSES, type Submission, type Submitter } from '../types.ts'
import { asFailure, Badge, Empty, ErrorNote, Loading, LoadMore, PageHeader, usePaged } from '../ui.tsx'
import { SignersProgress, SUBMISSION_TONES, submissionStatus } from './signers.tsx'

/** The submissions of the signers with this address (newest first), their status filter applied. */
function useByEmail(email: string, status: string) {
  const [state, setState] = useState<{ data?: Submission[]; error?: ReturnType<typeof asFailure> }>({})
  useEffect(() => {
    if (!email) return
    setState({})
    let current = true
    get<Page<Submitter>>(`/v1/submitters${query({ email, limit: 100 })}`)
      .then(async (page) => {
        const ids = [...new Set(page.data.map((s) => s.submission_id))]
        const submissions = await Promise.all(ids.map((id) => get<Submission>(`/v1/submissions/${id}`)))
        return submissions.filter((s) => !status || s.status === status)
      })
      .then(
        (data) => current && setState({ data }),
        (error: unknown) => current && setState({ error: asFailure(error) }),
      )
    return () => {
      current = false
    }
  }, [email, status])
  return state
}

/** The bulk send whose submissions the page lists (`/submissions?bulk_send_id=bulk_…`), or null. */
function bulkSendFilter(): string | null {
  return new URLSearchParams(location.search).get('bulk_send_id')
}

export function Submissions(_props: PageProps) {
  const { t, language } = useTexts()
  const bulkSendId = bulkSendFilter()
  const [status, setStatus] = useState('')
  const [typed, setTyped] = useState('')
  const [email, setEmail] = useState('')
  const list = usePaged<Submission>(
    `/v1/submissions${query({ status, bulk_send_id: email ? null : bulkSendId, limit: 25 })}`,
  )
  const byEmail = useByEmail(email, status)
  const rows = email ? byEmail.data : list.data
  const error = email ? byEmail.error : list.error
  const names = useTemplateNames(rows?.map((s) => s.template_id) ?? [])
  return (
    <>
      <PageHeader title={t.nav_submissions} />
      {bulkSendId && !email ? (
        <p class="page-note">
          {fill(t.bulk_submissions_of, { id: bulkSendId })}{' '}
          <Link to="/submissions">{t.bulk_submissions_all}</Link>
        </p>
      ) : null}
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault()
          setEmail(typed.trim())
        }}
      >
        <span class="filter">
          <label for="submission-status">{t.status}</label>
          <select id="submission-status" value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
            <option value="">{t.all_statuses}</option>
            {SUBMISSION_STATUSES.map((s) => (
              <option key={s} value={s}>
                {submissionStatus(t, s)}
              </option>
            ))}
          </select>
        </span>
        <span class="filter">
          <label for="submission-email">{t.signer_email}</label>
          <input
            id="submission-email"
            type="search"
            size={28}
            placeholder="name@example.com"
            value={typed}
            onInput={(e) => setTyped(e.currentTarget.value)}
          />
        </span>
        <button type="submit" class="button">
          {t.search}
        </button>
        {email ? (
          <button
            type="button"
            class="button ghost"
            onClick={() => {
              setTyped('')
              setEmail('')
            }}
          >
            {t.clear}
          </button>
        ) : null}
      </form>
      <ErrorNote error={error} />
      {!rows && !error ? <Loading /> : null}
      {rows && rows.length === 0 ? (
        <Empty title={email ? fill(t.submissions_none_for, { email }) : t.submissions_empty}>
          {email || status ? null : <p>{t.submissions_empty_hint}</p>}
        </Empty>
      ) : null}
      {rows && rows.length > 0 ? (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">{t.nav_submissions}</caption>
            <thead>
              <tr>
                <th scope="col">{t.submission}</th>
                <th scope="col">{t.status}</th>
                <th scope="col">{t.signers}</th>
                <th scope="col">{t.created}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((s) => (
                <tr key={s.id}>
                  <td data-label={t.submission}>
                    <Link to={`/submissions/${s.id}`} class="row-name">
                      {names[s.template_id] ?? t.submission}
                    </Link>
                    <IdText id={s.id} />
                  </td>
                  <td data-label={t.status}>
                    <Badge tone={SUBMISSION_TONES[s.status] ?? 'neutral'}>
                      {submissionStatus(t, s.status)}
                    </Badge>
                  </td>
                  <td data-label={t.signers}>
                    <SignersProgress submission={s} />
                  </td>
                  <td class="nowrap" data-label={t.created}>
                    {formatDateTime(language, s.created_at)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {email ? null : <LoadMore paged={list} />}
    </>
  )
}
