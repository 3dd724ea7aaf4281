// Legal holds (docs/console.md#legal-holds): the environment's holds, newest first, filtered by
// status and paged as other lists (GET /v1/legal_holds); each names its submissions as links to their
// pages. An admin places one (POST, ids pasted one per line or comma-separated) and releases one
// (DELETE) after a confirmation; an editor reads.
import { useState } from 'preact/hooks'
import { call, query } from '../api.ts'
import { formatDateTime } from '../format.ts'
import type { PageProps } from '../routes.tsx'
import { Link } from '../shell.tsx'
import { fill, useTexts } from '../texts.ts'
import type { LegalHold } from '../types.ts'
import {
  Badge,
  Confirm,
  Empty,
  ErrorNote,
  Loading,
  LoadMore,
  PageHeader,
  usePaged,
  useToast,
} from '../ui.tsx'
import { PlaceHold } from './place-hold.tsx'

const STATUSES = ['', 'active', 'released'] as const
type StatusFilter = (typeof STATUSES)[number]

/** A hold names up to 1000 submissions: the first few are links, the rest behind "Show all". */
const SHOWN = 5

export function LegalHolds({ session }: PageProps) {
  const { t } = useTexts()
  const toast = useToast()
  const [status, setStatus] = useState<StatusFilter>('')
  const [placing, setPlacing] = useState(false)
  const [releasing, setReleasing] = useState<LegalHold>()
  const holds = usePaged<LegalHold>(`/v1/legal_holds${query({ status, limit: 25 })}`)
  const admin = session.member.role === 'admin'
  const empty = { '': t.holds_empty, active: t.holds_empty_active, released: t.holds_empty_released }
  return (
    <>
      <PageHeader title={t.nav_legal_holds}>
        {admin ? (
          <button type="button" class="button primary" onClick={() => setPlacing(true)}>
            {t.holds_place}
          </button>
        ) : null}
      </PageHeader>
      <p class="page-note">{t.holds_intro}</p>
      {admin ? null : <p class="muted">{t.holds_admin_only}</p>}
      <div class="filters">
        <span class="filter">
          <label for="hold-status">{t.status}</label>
          <select
            id="hold-status"
            value={status}
            onChange={(e) => setStatus(e.currentTarget.value as StatusFilter)}
          >
            <option value="">{t.holds_status_all}</option>
            <option value="active">{t.holds_status_active}</option>
            <option value="released">{t.holds_status_released}</option>
          </select>
        </span>
      </div>
      <ErrorNote error={holds.error} />
      {!holds.data && !holds.error ? <Loading /> : null}
      {holds.data && holds.data.length === 0 ? <Empty title={empty[status]} /> : null}
      {holds.data && holds.data.length > 0 ? (
        <div class="table-wrap">
          <table class="holds-table">
            <caption class="visually-hidden">{t.nav_legal_holds}</caption>
            <thead>
              <tr>
                <th scope="col">{t.holds_reason_col}</th>
                <th scope="col">{t.status}</th>
                <th scope="col">{t.holds_submissions_col}</th>
                <th scope="col">{t.holds_placed_col}</th>
                {admin ? (
                  <th scope="col">
                    <span class="visually-hidden">{t.actions}</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {holds.data.map((hold) => (
                <HoldRow key={hold.id} hold={hold} admin={admin} onRelease={() => setReleasing(hold)} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <LoadMore paged={holds} />
      {placing ? (
        <PlaceHold
          onClose={() => setPlacing(false)}
          onPlaced={(hold) => {
            setPlacing(false)
            const n = hold.submission_ids.length
            toast(n === 1 ? t.holds_placed_one : fill(t.holds_placed, { n }))
            holds.reload()
          }}
        />
      ) : null}
      {releasing ? (
        <Confirm
          title={t.holds_release_title}
          body={
            <>
              <p class="hold-reason">“{releasing.reason}”</p>
              <p>{fill(t.holds_release_body, { n: releasing.submission_ids.length })}</p>
            </>
          }
          confirm={t.holds_release}
          danger
          onClose={() => setReleasing(undefined)}
          onConfirm={async () => {
            await call('DELETE', `/v1/legal_holds/${releasing.id}`)
            toast(t.holds_released_toast)
            holds.reload()
            return true
          }}
        />
      ) : null}
    </>
  )
}

function HoldRow(props: { hold: LegalHold; admin: boolean; onRelease: () => void }) {
  const { t, language } = useTexts()
  const { hold } = props
  const [all, setAll] = useState(false)
  const shown = all ? hold.submission_ids : hold.submission_ids.slice(0, SHOWN)
  return (
    <tr>
      <td data-label={t.holds_reason_col}>
        <span class="row-name hold-reason">{hold.reason}</span>
        <span class="muted small">{hold.id}</span>
      </td>
      <td data-label={t.status}>
        <Badge tone={hold.status === 'active' ? 'warning' : 'neutral'}>
          {hold.status === 'active' ? t.holds_status_active : t.holds_status_released}
        </Badge>
        {hold.released_at ? (
          <span class="muted small hold-released">{formatDateTime(language, hold.released_at)}</span>
        ) : null}
      </td>
      <td data-label={t.holds_submissions_col}>
        <ul class="hold-submissions">
          {shown.map((id) => (
            <li key={id}>
              <Link to={`/submissions/${id}`}>{id}</Link>
            </li>
          ))}
        </ul>
        {!all && hold.submission_ids.length > SHOWN ? (
          <button type="button" class="link-button" onClick={() => setAll(true)}>
            {fill(t.holds_show_all, { n: hold.submission_ids.length })}
          </button>
        ) : null}
      </td>
      <td class="nowrap" data-label={t.holds_placed_col}>
        {formatDateTime(language, hold.created_at)}
      </td>
      {props.admin ? (
        <td class="actions">
          {hold.status === 'active' ? (
            <button
              type="button"
              class="button small danger"
              aria-label={fill(t.holds_release_label, { reason: hold.reason })}
              onClick={props.onRelease}
            >
              {t.holds_release}
            </button>
          ) : null}
        </td>
      ) : null}
    </tr>
  )
}
