// "Erase a person" (docs/console.md#erasure-of-one-person), an admin's: an address, a confirmation
// saying what happens (ended submissions purged, active and held ones listed, the address not kept),
// then POST /v1/privacy/erasures and the report's own page (/erasures/era_…), which reads
// GET /v1/privacy/erasures/{id} again every second until it is `completed`.
import { useEffect, useState } from 'preact/hooks'
import { call, get } from '../api.ts'
import { formatDateTime } from '../format.ts'
import { IdText } from '../id-text.tsx'
import { navigate } from '../router.ts'
import type { PageProps } from '../routes.tsx'
import { Link } from '../shell.tsx'
import { fill, type Texts, useTexts } from '../texts.ts'
import type { Erasure } from '../types.ts'
import { asFailure, Confirm, ErrorNote, Loading, PageHeader } from '../ui.tsx'

const POLL_MS = 1000

export function ErasureRequest(_props: PageProps) {
  const { t } = useTexts()
  const [email, setEmail] = useState('')
  const [asking, setAsking] = useState<string>()
  return (
    <>
      <PageHeader title={t.erasure_title} />
      <p class="page-note">{t.erasure_intro}</p>
      <form
        class="panel erasure-form"
        aria-labelledby="page-title"
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          if (email.trim()) setAsking(email.trim())
        }}
      >
        <div class="inline-fields">
          <span class="filter grow">
            <label for="erasure-email">{t.erasure_email}</label>
            <input
              id="erasure-email"
              type="text"
              inputMode="email"
              spellcheck={false}
              autoCapitalize="off"
              autoComplete="off"
              value={email}
              onInput={(e) => setEmail(e.currentTarget.value)}
            />
          </span>
          <button type="submit" class="button danger" disabled={!email.trim()}>
            {t.erasure_start}
          </button>
        </div>
      </form>
      {asking ? (
        <Confirm
          title={fill(t.erasure_confirm_title, { email: asking })}
          body={
            <>
              <p>{fill(t.erasure_confirm_purged, { email: asking })}</p>
              <p>{t.erasure_confirm_listed}</p>
              <p class="muted">{t.erasure_confirm_kept}</p>
            </>
          }
          confirm={t.erasure_confirm}
          danger
          onClose={() => setAsking(undefined)}
          onConfirm={async () => {
            // call() gives this POST its Idempotency-Key (one per click of Erase).
            const erasure = await call<Erasure>('POST', '/v1/privacy/erasures', { email: asking })
            navigate(`/erasures/${erasure.id}`)
            return true
          }}
        />
      ) : null}
    </>
  )
}

/** The erasure, read again every second while it is pending. */
function useErasure(id: string) {
  const [erasure, setErasure] = useState<Erasure>()
  const [error, setError] = useState<ReturnType<typeof asFailure>>()
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined
    let current = true
    const read = () =>
      get<Erasure>(`/v1/privacy/erasures/${encodeURIComponent(id)}`).then(
        (data) => {
          if (!current) return
          setErasure(data)
          setError(undefined)
          if (data.status === 'pending') timer = setTimeout(read, POLL_MS)
        },
        (e: unknown) => current && setError(asFailure(e)),
      )
    read()
    return () => {
      current = false
      clearTimeout(timer)
    }
  }, [id])
  return { erasure, error }
}

const outcomeWords = (t: Texts, outcome: Erasure['submissions'][number]['outcome']) =>
  t[`erasure_outcome_${outcome}`]

function summary(t: Texts, language: 'en' | 'fr', erasure: Erasure): string {
  const { counts } = erasure
  if (erasure.status === 'pending') {
    if (counts.found === 0) return t.erasure_pending_none
    const done = erasure.submissions.filter((s) => s.outcome !== 'pending').length
    return fill(t.erasure_pending, { done, found: counts.found })
  }
  const date = formatDateTime(language, erasure.completed_at)
  if (counts.found === 0) return fill(t.erasure_none_found, { date })
  return fill(t.erasure_completed, { date, ...counts })
}

export function ErasureReport({ params }: PageProps) {
  const { t, language } = useTexts()
  const { erasure, error } = useErasure(params.id!)
  const done = erasure?.submissions.filter((s) => s.outcome !== 'pending').length ?? 0
  return (
    <>
      <p class="breadcrumb">
        <Link to="/erasures">← {t.erasure_another}</Link>
      </p>
      <PageHeader title={t.erasure_report} />
      <p class="page-subtitle">
        <IdText id={params.id!} />
      </p>
      <ErrorNote error={error} />
      {!erasure && !error ? <Loading /> : null}
      {erasure ? (
        <section class="panel erasure-report" aria-labelledby="erasure-summary">
          <p id="erasure-summary" class="erasure-summary" role="status">
            {summary(t, language, erasure)}
          </p>
          {erasure.status === 'pending' && erasure.counts.found > 0 ? (
            <progress
              aria-label={t.erasure_progress}
              max={erasure.counts.found}
              value={done}
              class="erasure-progress"
            />
          ) : null}
          {erasure.submissions.length > 0 ? (
            <div class="table-wrap">
              <table>
                <caption class="visually-hidden">{t.erasure_report}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t.submission}</th>
                    <th scope="col">{t.erasure_outcome}</th>
                  </tr>
                </thead>
                <tbody>
                  {erasure.submissions.map((item) => (
                    <tr key={item.submission_id}>
                      <td data-label={t.submission}>
                        <Link to={`/submissions/${item.submission_id}`}>{item.submission_id}</Link>
                      </td>
                      <td data-label={t.erasure_outcome} class={`outcome-${item.outcome}`}>
                        {outcomeWords(t, item.outcome)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
        </section>
      ) : null}
    </>
  )
}
