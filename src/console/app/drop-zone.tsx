// A file's drop target, with the file input inside it as the keyboard's way in (docs/console.md):
// "Verify a PDF", the editor's upload and a bulk send's CSV. A file dropped or chosen goes to
// `onFile`; the same file chosen again is taken again.
import type { ComponentChildren } from 'preact'
import { useState } from 'preact/hooks'

export function DropZone(props: {
  inputId: string
  accept: string
  /** What the zone says first: drop a file here, or… */
  hint: ComponentChildren
  /** The label of the button that opens the file chooser. */
  choose: ComponentChildren
  busy?: boolean
  describedBy?: string | undefined
  onFile: (file: File) => unknown
  /** More controls inside the zone, after the button. */
  children?: ComponentChildren
}) {
  const [over, setOver] = useState(false)
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a drop target only; the file input inside is the way for keyboards
    <div
      class={over ? 'drop-zone over' : 'drop-zone'}
      onDragOver={(event) => {
        event.preventDefault()
        setOver(true)
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(event) => {
        event.preventDefault()
        setOver(false)
        const file = event.dataTransfer?.files[0]
        if (file) void props.onFile(file)
      }}
    >
      {props.hint}
      <label class="button primary" for={props.inputId}>
        {props.choose}
      </label>
      <input
        id={props.inputId}
        class="visually-hidden"
        type="file"
        accept={props.accept}
        disabled={props.busy}
        aria-describedby={props.describedBy}
        onChange={async (event) => {
          const input = event.currentTarget as HTMLInputElement
          const file = input.files?.[0]
          try {
            if (file) await props.onFile(file)
          } finally {
            input.value = ''
          }
        }}
      />
      {props.children}
    </div>
  )
}
