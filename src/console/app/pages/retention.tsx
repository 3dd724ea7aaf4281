// Data retention (docs/console.md#data-retention): the policy of the session's environment in words,
// and for an admin a form to change it (GET/PUT /v1/retention_policy). Deletion is permanent and
// legal holds are respected: the page says both before Save. Leaving with changes not saved asks
// first, as the template editor does.
import { useCallback, useEffect, useState } from 'preact/hooks'
import { call } from '../api.ts'
import { formatDateTime } from '../format.ts'
import { type LeaveGuard, releaseLeaveGuard, useLeaveGuard } from '../router.ts'
import type { PageProps } from '../routes.tsx'
import { fill, type Texts, useTexts } from '../texts.ts'
import type { EndedStatus, RetentionPolicy } from '../types.ts'
import { Confirm, ErrorNote, Loading, PageHeader, useAction, useGet, useToast } from '../ui.tsx'

const STATUSES: EndedStatus[] = ['completed', 'declined', 'expired', 'cancelled']

const label = (t: Texts, status: EndedStatus) => t[`submission_${status}`]

/** "Ended submissions are kept forever." or "… deleted 90 days after they end: completed, declined." */
export function policyInWords(t: Texts, policy: Pick<RetentionPolicy, 'delete_after_days' | 'applies_to'>) {
  if (policy.delete_after_days === null) return t.retention_forever
  const statuses = policy.applies_to.map((s) => t[`retention_status_${s}`]).join(', ')
  const words = policy.delete_after_days === 1 ? t.retention_deleted_one : t.retention_deleted
  return fill(words, { days: policy.delete_after_days, statuses })
}

interface Draft {
  forever: boolean
  days: string
  statuses: EndedStatus[]
}

const draftOf = (policy: RetentionPolicy): Draft => ({
  forever: policy.delete_after_days === null,
  days: String(policy.delete_after_days ?? 90),
  statuses: [...policy.applies_to],
})

const sameDraft = (a: Draft, b: Draft) =>
  a.forever === b.forever &&
  (a.forever || a.days.trim() === b.days.trim()) &&
  STATUSES.every((s) => a.statuses.includes(s) === b.statuses.includes(s))

export function Retention({ session }: PageProps) {
  const { t, language } = useTexts()
  const policy = useGet<RetentionPolicy>('/v1/retention_policy')
  return (
    <>
      <PageHeader title={t.nav_retention} />
      <ErrorNote error={policy.error} />
      {!policy.data && !policy.error ? <Loading /> : null}
      {policy.data ? (
        <>
          <section class="panel" aria-labelledby="retention-now">
            <h2 id="retention-now">{t.retention_now}</h2>
            <p class="retention-policy">{policyInWords(t, policy.data)}</p>
            <p class="muted small">
              {fill(t.retention_scope, {
                environment: session.environment === 'live' ? t.retention_env_live : t.retention_env_test,
              })}
              {policy.data.updated_at
                ? ` ${fill(t.retention_updated, { date: formatDateTime(language, policy.data.updated_at) })}`
                : ''}
            </p>
          </section>
          {session.member.role === 'admin' ? (
            <RetentionForm policy={policy.data} onSaved={policy.reload} />
          ) : (
            <p class="muted">{t.retention_admin_only}</p>
          )}
        </>
      ) : null}
    </>
  )
}

function RetentionForm({ policy, onSaved }: { policy: RetentionPolicy; onSaved: () => void }) {
  const { t } = useTexts()
  const toast = useToast()
  const [draft, setDraft] = useState<Draft>(() => draftOf(policy))
  const [leaving, setLeaving] = useState<() => void>()
  useEffect(() => setDraft(draftOf(policy)), [policy])
  const changed = !sameDraft(draft, draftOf(policy))
  const save = useAction(() =>
    call<RetentionPolicy>('PUT', '/v1/retention_policy', {
      // Sent as typed (1.5, 0, a blank as ""), never read as "forever": the API's refusal names the field.
      delete_after_days: draft.forever ? null : draft.days.trim() === '' ? '' : Number(draft.days),
      applies_to: draft.statuses,
    }),
  )
  const guard = useCallback<LeaveGuard>(
    (proceed) => {
      if (!changed) return false
      setLeaving(() => proceed)
      return true
    },
    [changed],
  )
  useLeaveGuard(changed ? guard : null, () => changed)
  const set = (patch: Partial<Draft>) => {
    save.clear()
    setDraft((d) => ({ ...d, ...patch }))
  }
  return (
    <form
      class="panel retention-form"
      aria-labelledby="retention-change"
      noValidate
      onSubmit={async (e) => {
        e.preventDefault()
        if (await save.run()) {
          toast(t.retention_saved)
          onSaved()
        }
      }}
    >
      <h2 id="retention-change">{t.retention_change}</h2>
      <fieldset class="choices">
        <legend>{t.retention_how_long}</legend>
        <label class="checkbox">
          <input
            type="radio"
            name="retention"
            checked={draft.forever}
            onChange={() => set({ forever: true })}
          />
          {t.retention_keep_forever}
        </label>
        <label class="checkbox">
          <input
            type="radio"
            name="retention"
            checked={!draft.forever}
            onChange={() => set({ forever: false })}
          />
          {t.retention_delete_after}
        </label>
        <span class="retention-days">
          <label for="retention-days">{t.retention_days}</label>
          <input
            id="retention-days"
            type="number"
            inputMode="numeric"
            min={1}
            max={3650}
            step={1}
            disabled={draft.forever}
            value={draft.days}
            aria-describedby="retention-days-help"
            onInput={(e) => set({ days: e.currentTarget.value })}
          />
          <span id="retention-days-help" class="muted small">
            {t.retention_days_help}
          </span>
        </span>
      </fieldset>
      <fieldset class="checkboxes" disabled={draft.forever}>
        <legend>{t.retention_applies_to}</legend>
        {STATUSES.map((status) => (
          <label key={status} class="checkbox">
            <input
              type="checkbox"
              checked={draft.statuses.includes(status)}
              onChange={(e) => {
                const on = e.currentTarget.checked
                set({
                  statuses: STATUSES.filter((s) => (s === status ? on : draft.statuses.includes(s))),
                })
              }}
            />
            {label(t, status)}
          </label>
        ))}
      </fieldset>
      <p class="warning" role="note">
        {t.retention_warning}
      </p>
      <ErrorNote error={save.error} />
      <div class="form-actions">
        <button type="submit" class="button primary" disabled={save.busy || !changed}>
          {t.save}
        </button>
        {changed ? <span class="muted small">{t.retention_unsaved}</span> : null}
      </div>
      {leaving ? (
        <Confirm
          title={t.retention_leave_title}
          body={<p>{t.retention_leave_body}</p>}
          confirm={t.editor_leave}
          cancel={t.editor_stay}
          danger
          onClose={() => setLeaving(undefined)}
          onConfirm={async () => {
            releaseLeaveGuard()
            leaving()
            return true
          }}
        />
      ) : null}
    </form>
  )
}
