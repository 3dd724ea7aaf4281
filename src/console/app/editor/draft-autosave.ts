// The editor's work saved on its draft as it goes (PATCH /console/api/template_drafts/:id, docs/
// console.md#the-editors-work-kept-as-a-draft): a moment after the last change, the whole state,
// one request at a time (a change made while one is under way is sent when it ends). A failed save
// is tried again at the next change; the status line says which it is.
import { useEffect, useRef, useState } from 'preact/hooks'
import { call } from '../api.ts'

/** What a draft keeps of the editor's work, as the PATCH takes it. */
export interface DraftWork {
  name: string
  slug: string
  fields: object[]
}

export type SaveStatus = 'idle' | 'saving' | 'saved' | 'failed'

const DELAY_MS = 700

export function useDraftAutosave(draftId: string, work: DraftWork, opened: DraftWork) {
  const [status, setStatus] = useState<SaveStatus>('idle')
  const text = JSON.stringify(work)
  const latest = useRef(text)
  latest.current = text
  const saved = useRef(JSON.stringify(opened))
  const running = useRef(false)

  const flush = async () => {
    if (running.current) return
    running.current = true
    try {
      while (latest.current !== saved.current) {
        const sending = latest.current
        setStatus('saving')
        await call(
          'PATCH',
          `/console/api/template_drafts/${encodeURIComponent(draftId)}`,
          JSON.parse(sending),
        )
        saved.current = sending
        setStatus('saved')
      }
    } catch {
      setStatus('failed')
    } finally {
      running.current = false
    }
  }

  useEffect(() => {
    if (text === saved.current) return
    const timer = setTimeout(flush, DELAY_MS)
    return () => clearTimeout(timer)
  }, [text])

  /** Whether the page holds work the draft does not have yet (waiting, under way, or failed). */
  const pending = () => latest.current !== saved.current
  return { status, flush, pending }
}
