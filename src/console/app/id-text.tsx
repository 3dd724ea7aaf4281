// An id as secondary text beside the name a person reads (issue #33: names first, ids still there
// to quote to support or paste into an API call): small, muted, and copyable with one button whose
// accessible name says which id it copies.
import { fill, useTexts } from './texts.ts'
import { useToast } from './ui.tsx'

export function IdText({ id }: { id: string }) {
  const { t } = useTexts()
  const toast = useToast()
  return (
    <span class="id-text">
      <code>{id}</code>
      <button
        type="button"
        class="id-copy"
        aria-label={fill(t.copy_id, { id })}
        title={fill(t.copy_id, { id })}
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(id)
            toast(t.copied)
          } catch {
            toast(t.copy_failed)
          }
        }}
      >
        {t.copy}
      </button>
    </span>
  )
}
