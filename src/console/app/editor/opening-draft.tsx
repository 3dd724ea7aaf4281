// A draft being opened (a saved one resumed, or a template's copy made): "Loading" until it comes,
// or what went wrong with a way to start blank instead.
import { useEffect } from 'preact/hooks'
import { Link } from '../shell.tsx'
import { useTexts } from '../texts.ts'
import { ErrorNote, Loading, useAction } from '../ui.tsx'
import type { Draft } from './upload.tsx'

/** Runs `load` once per `target` (the draft's or the template's id), then hands the draft on. */
export function OpeningDraft(props: {
  target: string
  load: () => Promise<Draft>
  onLoaded: (draft: Draft) => void
}) {
  const { t } = useTexts()
  const open = useAction(props.load)
  useEffect(() => {
    open.run().then((done) => done && props.onLoaded(done.value))
  }, [props.target])
  if (!open.error) return <Loading />
  return (
    <section class="panel">
      <ErrorNote error={open.error} />
      <p>
        <Link to="/templates/new">{t.editor_start_blank}</Link>
      </p>
    </section>
  )
}
