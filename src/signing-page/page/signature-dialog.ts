// The dialog where a signer makes their signature or initials, once (adopted, then reused
// for every field of its kind): drawn with mouse, finger or pen (signature_pad), typed and set in a
// handwriting font served by Paraph, or uploaded as a PNG or JPEG image. Every way works by keyboard:
// the tabs are buttons, the file chooser a native input. The result is a PNG data URL trimmed to
// the ink and capped to the server's limit (signature-images.ts), which is what …/sign takes.
import SignaturePad from 'signature_pad'
import { h } from './dom.ts'
import {
  cappedPng,
  INK,
  pngFromImageFile,
  trimmed,
  typedCanvas,
  type UploadProblem,
} from './signature-images.ts'
import type { Texts } from './texts.ts'

export type SignatureMode = 'draw' | 'type' | 'upload'
const MODES: SignatureMode[] = ['draw', 'type', 'upload']

export interface SignatureRequest {
  kind: 'signature' | 'initials'
  label: string
  /** Suggested typed text: the signer's name, or its initials. */
  suggestion: string
  /** The tab to open on: the way the signer made their other image, if any. */
  mode?: SignatureMode
}

export interface MadeSignature {
  png: string
  mode: SignatureMode
  /** The typed text, when typed: the initials are suggested from it. */
  typed: string | null
}

function uploadPanel(t: Texts, message: HTMLElement): { panel: HTMLElement; result: () => string | null } {
  let uploaded: string | null = null
  const input = h('input', { type: 'file', id: 'signature-file', accept: 'image/png,image/jpeg' })
  const preview = h('img', { class: 'upload-preview', alt: '', hidden: true })
  input.addEventListener('change', async () => {
    message.textContent = ''
    uploaded = null
    preview.hidden = true
    const file = input.files?.[0]
    if (!file) return
    const made = await pngFromImageFile(file)
    if ('problem' in made) {
      message.textContent = t[made.problem satisfies UploadProblem]
      return
    }
    uploaded = made.png
    preview.src = made.png
    preview.hidden = false
  })
  const panel = h(
    'div',
    { class: 'tab-panel', hidden: true },
    h('label', { for: 'signature-file' }, t.upload_label),
    input,
    h('p', { class: 'hint' }, t.upload_hint),
    preview,
  )
  return { panel, result: () => uploaded }
}

/** Opens the dialog; resolves with the image made, or null when the signer cancels. */
export function askForSignature(t: Texts, request: SignatureRequest): Promise<MadeSignature | null> {
  return new Promise((resolve) => {
    const canvas = h('canvas', { class: 'pad', 'aria-label': t.draw_hint, role: 'img' })
    const typed = h('input', {
      type: 'text',
      id: 'typed-signature',
      class: 'typed-input',
      maxlength: 80,
      autocomplete: request.kind === 'initials' ? 'off' : 'name',
      value: request.suggestion,
    })
    const preview = h('p', { class: 'typed-preview', 'aria-hidden': 'true' }, request.suggestion)
    typed.addEventListener('input', () => {
      preview.textContent = typed.value
    })
    const message = h('p', { class: 'message', role: 'alert' })
    const upload = uploadPanel(t, message)
    const panels: Record<SignatureMode, HTMLElement> = {
      draw: h(
        'div',
        { class: 'tab-panel' },
        h('p', { class: 'hint' }, t.draw_hint),
        canvas,
        h('button', { type: 'button', class: 'link-button', onclick: () => pad.clear() }, t.clear),
      ),
      type: h(
        'div',
        { class: 'tab-panel', hidden: true },
        h('label', { for: 'typed-signature' }, t.type_hint),
        typed,
        preview,
      ),
      upload: upload.panel,
    }
    const tabs = MODES.map((m) => {
      const tab = h('button', { type: 'button', class: 'tab', 'aria-pressed': 'false' }, t[m])
      tab.addEventListener('click', () => choose(m))
      return tab
    })
    let mode: SignatureMode = 'draw'
    function choose(next: SignatureMode): void {
      mode = next
      message.textContent = ''
      MODES.forEach((m, i) => {
        tabs[i]?.setAttribute('aria-pressed', String(m === next))
        panels[m].hidden = m !== next
      })
      if (next === 'type') typed.select()
      if (next === 'draw') fitCanvas()
    }
    const apply = h(
      'button',
      { type: 'submit', class: 'primary' },
      request.kind === 'initials' ? t.apply_initials : t.apply,
    )
    const cancel = h('button', { type: 'button', class: 'secondary' }, t.cancel)
    const formElement = h(
      'form',
      { method: 'dialog', class: 'dialog-body' },
      h('h2', { id: 'signature-title' }, request.label),
      h('p', { class: 'hint' }, request.kind === 'initials' ? t.adopt_initials : t.adopt_signature),
      h('div', { class: 'tabs', role: 'group' }, ...tabs),
      panels.draw,
      panels.type,
      panels.upload,
      message,
      h('div', { class: 'actions' }, cancel, apply),
    )
    const dialog = h('dialog', { class: 'dialog', 'aria-labelledby': 'signature-title' }, formElement)
    document.body.append(dialog)
    const pad = new SignaturePad(canvas, { penColor: INK, minWidth: 0.8, maxWidth: 2.6 })
    function fitCanvas(): void {
      const ratio = Math.max(window.devicePixelRatio || 1, 1)
      const { width, height } = canvas.getBoundingClientRect()
      if (width === 0) return
      const data = pad.toData()
      canvas.width = Math.round(width * ratio)
      canvas.height = Math.round(height * ratio)
      canvas.getContext('2d')?.scale(ratio, ratio)
      pad.clear()
      pad.fromData(data)
    }
    const close = (value: MadeSignature | null) => {
      pad.off()
      window.removeEventListener('resize', fitCanvas)
      dialog.close()
      dialog.remove()
      resolve(value)
    }
    cancel.addEventListener('click', () => close(null))
    dialog.addEventListener('cancel', (event) => {
      event.preventDefault()
      close(null)
    })
    async function made(): Promise<string | null> {
      if (mode === 'upload') return upload.result()
      const ink =
        mode === 'draw'
          ? pad.isEmpty()
            ? null
            : trimmed(canvas)
          : typed.value.trim()
            ? trimmed(await typedCanvas(typed.value.trim()))
            : null
      return ink && cappedPng(ink)
    }
    formElement.addEventListener('submit', async (event) => {
      event.preventDefault()
      const png = await made()
      if (!png) {
        if (!message.textContent) message.textContent = t.signature_empty
        return
      }
      close({ png, mode, typed: mode === 'type' ? typed.value.trim() : null })
    })
    window.addEventListener('resize', fitCanvas)
    dialog.showModal()
    fitCanvas()
    // Without a fine pointer (keyboard, screen reader) drawing is not an option to start on.
    const pointer = window.matchMedia('(pointer: fine), (pointer: coarse)').matches
    choose(request.mode ?? (pointer ? 'draw' : 'type'))
  })
}
