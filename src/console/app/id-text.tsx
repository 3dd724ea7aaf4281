// An id as secondary text beside the name a person reads (issue #33: names first, ids still there
// to quote to support or paste into an API call): small, muted, and copyable with one button whose
// accessible name says which id it copies. `short` cuts a long id to its cell's width (a log's request
// id): the whole id is its title and what the button copies.
import { fill, useTexts } from './texts.ts'
import { useToast } from './ui.tsx'

export function IdText({ id, short }: { id: string; short?: boolean }) {
  const { t } = useTexts()
  const toast = useToast()
  return (
    <span class={short ? 'id-text short' : 'id-text'}>
      <code title={short ? id : undefined}>{id}</code>
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
