// "Place a legal hold" (docs/console.md#legal-holds): submission ids as pasted — one per line, or
// separated by commas, spaces or semicolons, repeats dropped — and a reason, sent to
// POST /v1/legal_holds. The API's refusal (an unknown id, too many) is shown in the dialog.
import { useState } from 'preact/hooks'
import { call } from '../api.ts'
import { submissionIdsIn } from '../pasted-ids.ts'
import { fill, useTexts } from '../texts.ts'
import type { LegalHold } from '../types.ts'
import { Dialog, ErrorNote, useAction } from '../ui.tsx'

export function PlaceHold(props: { onClose: () => void; onPlaced: (hold: LegalHold) => void }) {
  const { t } = useTexts()
  const [ids, setIds] = useState('')
  const [reason, setReason] = useState('')
  const parsed = submissionIdsIn(ids)
  const place = useAction(() =>
    call<LegalHold>('POST', '/v1/legal_holds', { submission_ids: parsed, reason: reason.trim() }),
  )
  return (
    <Dialog title={t.holds_place_title} onClose={props.onClose} wide>
      <form
        class="hold-form"
        noValidate
        onSubmit={async (e) => {
          e.preventDefault()
          const placed = await place.run()
          if (placed) props.onPlaced(placed.value)
        }}
      >
        <label for="hold-ids">{t.holds_ids}</label>
        <textarea
          id="hold-ids"
          rows={5}
          spellcheck={false}
          autoCapitalize="off"
          aria-describedby="hold-ids-help"
          value={ids}
          onInput={(e) => {
            place.clear()
            setIds(e.currentTarget.value)
          }}
        />
        <p id="hold-ids-help" class="muted small">
          {t.holds_ids_help}{' '}
          <span aria-live="polite">
            {parsed.length === 1 ? t.holds_ids_count_one : fill(t.holds_ids_count, { n: parsed.length })}
          </span>
        </p>
        <label for="hold-reason">{t.holds_reason}</label>
        <input
          id="hold-reason"
          type="text"
          maxLength={500}
          aria-describedby="hold-reason-help"
          value={reason}
          onInput={(e) => {
            place.clear()
            setReason(e.currentTarget.value)
          }}
        />
        <p id="hold-reason-help" class="muted small">
          {t.holds_reason_help}
        </p>
        <ErrorNote error={place.error} />
        <div class="dialog-actions">
          <button type="button" class="button" onClick={props.onClose}>
            {t.cancel}
          </button>
          <button type="submit" class="button primary" disabled={place.busy}>
            {t.holds_place_title}
          </button>
        </div>
      </form>
    </Dialog>
  )
}
