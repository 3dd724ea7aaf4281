// The dialog where a signer makes a signature or initials: drawn with mouse, finger or pen
// (signature_pad), or typed and set in a handwriting font served by Paraph. Either way the result
// is a PNG data URL trimmed to the ink, which is what …/sign takes.
import SignaturePad from 'signature_pad'
import { h } from './dom.ts'
import type { Texts } from './texts.ts'

export const SCRIPT_FONT = 'Dancing Script'
const INK = '#0b2a5b'

/** The smallest canvas holding every non-transparent pixel of `source`, plus a small margin. */
function trimmed(source: HTMLCanvasElement): HTMLCanvasElement | null {
  const context = source.getContext('2d')
  if (!context) return null
  const { width, height } = source
  const pixels = context.getImageData(0, 0, width, height).data
  let top = height
  let left = width
  let right = -1
  let bottom = -1
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if ((pixels[(y * width + x) * 4 + 3] ?? 0) > 8) {
        if (x < left) left = x
        if (x > right) right = x
        if (y < top) top = y
        if (y > bottom) bottom = y
      }
    }
  }
  if (right < 0) return null
  const margin = 4
  const out = document.createElement('canvas')
  out.width = right - left + 1 + 2 * margin
  out.height = bottom - top + 1 + 2 * margin
  out
    .getContext('2d')
    ?.drawImage(source, left - margin, top - margin, out.width, out.height, 0, 0, out.width, out.height)
  return out
}

/** The typed text drawn in the handwriting font on a canvas of its own size. */
async function typedCanvas(text: string): Promise<HTMLCanvasElement> {
  const size = 96
  await document.fonts.load(`${size}px "${SCRIPT_FONT}"`, text).catch(() => [])
  const probe = document.createElement('canvas').getContext('2d')
  const font = `${size}px "${SCRIPT_FONT}", cursive`
  let width = 400
  if (probe) {
    probe.font = font
    width = Math.ceil(probe.measureText(text).width) + 40
  }
  const canvas = document.createElement('canvas')
  canvas.width = Math.min(3000, Math.max(40, width))
  canvas.height = Math.round(size * 1.6)
  const context = canvas.getContext('2d')
  if (context) {
    context.font = font
    context.fillStyle = INK
    context.textBaseline = 'middle'
    context.fillText(text, 20, canvas.height / 2)
  }
  return canvas
}

export interface SignatureRequest {
  kind: 'signature' | 'initials'
  label: string
  /** Suggested typed text: the signer's name, or its initials. */
  suggestion: string
}

/** Opens the dialog; resolves with a PNG data URL, or null when the signer cancels. */
export function askForSignature(t: Texts, request: SignatureRequest): Promise<string | null> {
  return new Promise((resolve) => {
    const canvas = h('canvas', { class: 'pad', 'aria-label': t.draw_hint, role: 'img' })
    const typed = h('input', {
      type: 'text',
      id: 'typed-signature',
      class: 'typed-input',
      maxlength: 80,
      autocomplete: 'name',
      value: request.suggestion,
    })
    const preview = h('p', { class: 'typed-preview', 'aria-hidden': 'true' }, request.suggestion)
    typed.addEventListener('input', () => {
      preview.textContent = typed.value
    })
    const message = h('p', { class: 'message', role: 'alert' })
    const drawTab = h('button', { type: 'button', class: 'tab', 'aria-pressed': 'true' }, t.draw)
    const typeTab = h('button', { type: 'button', class: 'tab', 'aria-pressed': 'false' }, t.type)
    const drawPanel = h(
      'div',
      { class: 'tab-panel' },
      h('p', { class: 'hint' }, t.draw_hint),
      canvas,
      h('button', { type: 'button', class: 'link-button', onclick: () => pad.clear() }, t.clear),
    )
    const typePanel = h(
      'div',
      { class: 'tab-panel', hidden: true },
      h('label', { for: 'typed-signature' }, t.type_hint),
      typed,
      preview,
    )
    let mode: 'draw' | 'type' = 'draw'
    const choose = (next: 'draw' | 'type') => {
      mode = next
      drawTab.setAttribute('aria-pressed', String(next === 'draw'))
      typeTab.setAttribute('aria-pressed', String(next === 'type'))
      drawPanel.hidden = next !== 'draw'
      typePanel.hidden = next !== 'type'
      if (next === 'type') typed.select()
      else fitCanvas()
    }
    drawTab.addEventListener('click', () => choose('draw'))
    typeTab.addEventListener('click', () => choose('type'))
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
      h('div', { class: 'tabs', role: 'group' }, drawTab, typeTab),
      drawPanel,
      typePanel,
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
    const close = (value: string | null) => {
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
    formElement.addEventListener('submit', async (event) => {
      event.preventDefault()
      let result: HTMLCanvasElement | null = null
      if (mode === 'draw') result = pad.isEmpty() ? null : trimmed(canvas)
      else if (typed.value.trim()) result = trimmed(await typedCanvas(typed.value.trim()))
      if (!result) {
        message.textContent = t.signature_empty
        return
      }
      close(result.toDataURL('image/png'))
    })
    window.addEventListener('resize', fitCanvas)
    dialog.showModal()
    fitCanvas()
    // Without a fine pointer (keyboard, screen reader) drawing is not an option to start on.
    if (!window.matchMedia('(pointer: fine), (pointer: coarse)').matches) choose('type')
  })
}
