// A bulk send's job (docs/api.md#bulk-send "The job"): its status and a progress bar from its
// counts, read again every second until it ends; "Stop sending" (DELETE /v1/bulk_sends/{id}); its
// failed rows with their errors, and the download of those rows as CSV; a link to its submissions.
import { useEffect, useState } from 'preact/hooks'
import type { ApiFailure } from '../api.ts'
import { call, get, query } from '../api.ts'
import { formatNumber } from '../format.ts'
import { IdText } from '../id-text.tsx'
import type { PageProps } from '../routes.tsx'
import { Link } from '../shell.tsx'
import { useTemplateNames } from '../template-names.ts'
import { fill, type Texts, useTexts } from '../texts.ts'
import { asFailure, Badge, Confirm, ErrorNote, Loading, PageHeader, useToast } from '../ui.tsx'
import { type BulkSend, ENDED } from './bulk-types.ts'
import { FailedRows } from './failed-rows-panel.tsx'

const POLL_MS = 1000

const TONES: Record<BulkSend['status'], string> = {
  queued: 'neutral',
  running: 'info',
  completed: 'success',
  completed_with_errors: 'warning',
  cancelled: 'neutral',
}

export function bulkStatus(t: Texts, status: BulkSend['status']): string {
  return t[`bulk_status_${status}`]
}

/** The job, read again every second while it runs; `replace` puts an answer in (the cancel's). */
function useJob(id: string) {
  const [job, setJob] = useState<BulkSend>()
  const [error, setError] = useState<ApiFailure>()
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined
    let current = true
    const read = () =>
      get<BulkSend>(`/v1/bulk_sends/${encodeURIComponent(id)}`).then(
        (next) => {
          if (!current) return
          setJob(next)
          setError(undefined)
          if (!ENDED.includes(next.status)) timer = setTimeout(read, POLL_MS)
        },
        (failure: unknown) => {
          if (!current) return
          setError(asFailure(failure))
          // A passing network failure: try again, slower; an API refusal (404) stays shown.
          if (asFailure(failure).status === 0) timer = setTimeout(read, POLL_MS * 5)
        },
      )
    void read()
    return () => {
      current = false
      clearTimeout(timer)
    }
  }, [id])
  return { job, error, replace: setJob }
}

function Progress({ job }: { job: BulkSend }) {
  const { t, language } = useTexts()
  const n = (value: number) => formatNumber(language, value)
  const { total, created, failed, cancelled, pending } = job.counts
  const done = created + failed + cancelled
  const part = (value: number) => `${total ? (100 * value) / total : 0}%`
  return (
    <div class="bulk-progress">
      <div
        class="bulk-bar"
        role="progressbar"
        aria-label={t.bulk_progress}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        aria-valuetext={fill(t.bulk_progress_text, { done: n(done), total: n(total) })}
      >
        <span class="bulk-bar-created" style={{ width: part(created) }} />
        <span class="bulk-bar-failed" style={{ width: part(failed) }} />
        <span class="bulk-bar-cancelled" style={{ width: part(cancelled) }} />
      </div>
      <p class="bulk-progress-text">{fill(t.bulk_progress_text, { done: n(done), total: n(total) })}</p>
      <dl class="bulk-counts">
        {(
          [
            ['created', t.bulk_created, created],
            ['failed', t.bulk_failed, failed],
            ['cancelled', t.bulk_cancelled, cancelled],
            ['pending', t.bulk_pending, pending],
          ] as const
        ).map(([key, label, value]) => (
          <div key={key} class={`bulk-count bulk-count-${key}`}>
            <dt>{label}</dt>
            <dd>{n(value)}</dd>
          </div>
        ))}
      </dl>
    </div>
  )
}

export function BulkSendPage({ params }: PageProps) {
  const { t, language } = useTexts()
  const toast = useToast()
  const id = params.id!
  const { job, error, replace } = useJob(id)
  const names = useTemplateNames(job ? [job.template_id] : [])
  const [stopping, setStopping] = useState(false)
  const name = job ? names[job.template_id] : undefined
  const ended = job ? ENDED.includes(job.status) : false
  return (
    <>
      <p class="breadcrumb">
        <Link to="/templates">← {t.nav_templates}</Link>
      </p>
      <PageHeader title={name ? fill(t.bulk_job_title, { name }) : t.bulk_job_title_plain}>
        {job && !ended ? (
          <button type="button" class="button danger" onClick={() => setStopping(true)}>
            {t.bulk_stop}
          </button>
        ) : null}
      </PageHeader>
      <p class="page-subtitle">
        <IdText id={id} />
      </p>
      <ErrorNote error={error} />
      {!job && !error ? <Loading /> : null}
      {job ? (
        <section class="panel" aria-labelledby="bulk-job-status">
          <h2 id="bulk-job-status">
            {t.status} <Badge tone={TONES[job.status]}>{bulkStatus(t, job.status)}</Badge>
          </h2>
          <Progress job={job} />
          <p>
            <Link to={`/submissions${query({ bulk_send_id: id })}`}>{t.bulk_see_submissions}</Link>
          </p>
        </section>
      ) : null}
      {job ? <FailedRows id={id} failed={job.counts.failed} ended={ended} /> : null}
      {stopping && job ? (
        <Confirm
          title={t.bulk_stop_title}
          body={<p>{fill(t.bulk_stop_body, { n: formatNumber(language, job.counts.pending) })}</p>}
          confirm={t.bulk_stop}
          cancel={t.cancel}
          danger
          onClose={() => setStopping(false)}
          onConfirm={async () => {
            replace(await call<BulkSend>('DELETE', `/v1/bulk_sends/${encodeURIComponent(id)}`))
            toast(t.bulk_stopped)
          }}
        />
      ) : null}
    </>
  )
}
