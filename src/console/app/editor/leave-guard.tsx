// Leaving the editor with changes not yet saved as a template asks first (issue #33): a console link
// or Back opens a dialog (Leave / Stay) saying the work is kept as a draft — or, when the draft could
// not take the last changes, that they would be lost; closing or reloading the tab gets the browser's
// own prompt. Leaving sends what the draft does not have yet. Beside it, the draft's save status.
import { useCallback, useRef, useState } from 'preact/hooks'
import { type LeaveGuard, releaseLeaveGuard, useLeaveGuard } from '../router.ts'
import { useTexts } from '../texts.ts'
import { Confirm } from '../ui.tsx'
import type { SaveStatus, useDraftAutosave } from './draft-autosave.ts'

type Autosave = ReturnType<typeof useDraftAutosave>

export function useEditorLeaveGuard(changed: boolean, autosave: Autosave) {
  const { t } = useTexts()
  const [leaving, setLeaving] = useState<{ proceed: () => void; lost: boolean }>()
  const state = useRef({ changed, autosave, saved: false })
  state.current.changed = changed
  state.current.autosave = autosave
  const unsaved = () => state.current.changed && !state.current.saved
  const guard = useCallback<LeaveGuard>((proceed) => {
    if (!unsaved()) return false
    const saving = state.current.autosave
    const lost = saving.status === 'failed'
    saving.flush()
    setLeaving({ proceed, lost })
    return true
  }, [])
  useLeaveGuard(guard, unsaved)
  const dialog = leaving ? (
    <Confirm
      title={t.editor_leave_title}
      body={<p>{leaving.lost ? t.editor_leave_unsaved_body : t.editor_leave_body}</p>}
      confirm={t.editor_leave}
      cancel={t.editor_stay}
      danger={leaving.lost}
      onClose={() => setLeaving(undefined)}
      onConfirm={async () => {
        releaseLeaveGuard()
        leaving.proceed()
        return true
      }}
    />
  ) : null
  /** The work was made a template: nothing left to ask about. */
  const release = () => {
    state.current.saved = true
    releaseLeaveGuard()
  }
  return { dialog, release }
}

/** The draft's save, in words, read out politely. */
export function DraftStatus({ status }: { status: SaveStatus }) {
  const { t } = useTexts()
  const text =
    status === 'saving'
      ? t.editor_draft_saving
      : status === 'saved'
        ? t.editor_draft_saved
        : status === 'failed'
          ? t.editor_draft_failed
          : ''
  return (
    <p class={status === 'failed' ? 'draft-status field-error' : 'draft-status muted small'} role="status">
      {text}
    </p>
  )
}
