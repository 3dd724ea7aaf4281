// The form itself: the document pages with this signer's fields on their areas, and a panel that
// edits one field at a time, counts what is still missing, moves to the next field, and ends with
// the consent and the Sign button. A signature or initials is made once and reused; on a
// narrow screen (a phone, a narrow iframe) the panel stays compact while a field is filled, so the
// document keeps most of the screen, and opens on the consent and Sign once all is filled.
import { ApiFailure, call } from './api.ts'
import { signingContext } from './context.ts'
import { openDecline } from './decline-dialog.ts'
import { h, mount } from './dom.ts'
import { type Draft, isImageField } from './draft.ts'
import { editor } from './editors.ts'
import { type Field, fieldsToFill, isFilled, type SigningForm, type Value } from './form.ts'
import { documentPages, fieldLabel, paintField } from './pages.ts'
import { fieldHead, fieldNav, signingEnd, topBar } from './panel-parts.ts'
import type { ProgressSaver } from './progress.ts'
import { askForSignature } from './signature-dialog.ts'
import { fill, type Language, type Texts } from './texts.ts'

export interface ViewEvents {
  /** After a successful sign or decline: the page reads the form again (or redirects). */
  finished(kind: 'signed' | 'declined'): void
  /** The form changed under us (not your turn, already final, ended): read it again. */
  stale(): void
}

export interface ViewInput {
  t: Texts
  lang: Language
  form: SigningForm
  draft: Draft
  /** The language picker, for the top bar. */
  picker: HTMLElement
  /** Saves each change on the server as the signer goes (progress.ts). */
  saver: ProgressSaver
  events: ViewEvents
}

type ImageField = Field & { type: 'signature' | 'initials' }

const STALE = [
  'not_your_turn',
  'submitter_already_finalized',
  'submission_not_active',
  'email_2fa_required',
  'submission_purged',
]

function initialsOf(name: string | null): string {
  return (name ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((part) => part[0]?.toUpperCase() ?? '')
    .join('')
}

export function signingView(app: Element, input: ViewInput): void {
  new SigningView(app, input)
}

/** The form on screen, and every change to it: a value set, a field selected, the panel opened, the signature sent. */
class SigningView {
  private readonly t: Texts
  private readonly lang: Language
  private readonly form: SigningForm
  private readonly draft: Draft
  private readonly events: ViewEvents
  private readonly saver: ProgressSaver
  private readonly fields: Field[]
  private readonly values: Draft['values']
  private readonly progress = h('p', { class: 'progress', role: 'status' })
  private readonly message = h('p', { class: 'message', role: 'alert' })
  private readonly inner = h('div', { class: 'panel-inner' })
  private readonly panel: HTMLElement
  private readonly pages: ReturnType<typeof documentPages>
  private readonly toggle: HTMLButtonElement

  constructor(app: Element, { t, lang, form, draft, picker, saver, events }: ViewInput) {
    this.t = t
    this.lang = lang
    this.form = form
    this.draft = draft
    this.events = events
    this.saver = saver
    this.fields = fieldsToFill(form)
    this.values = draft.values
    this.panel = h('aside', { class: 'panel', 'aria-label': t.sign }, this.inner)
    const decline = h('button', { type: 'button', class: 'secondary small' }, t.decline)
    decline.addEventListener('click', () =>
      openDecline(t, decline, { declined: () => events.finished('declined'), stale: events.stale }),
    )
    const header = topBar(form, this.progress, picker, decline)
    this.pages = documentPages(t, lang, form, this.fields, (index) => this.pick(index))
    this.pages.element.prepend(...signingContext(t, lang, form))
    this.toggle = h('button', {
      type: 'button',
      class: 'secondary panel-toggle',
      'aria-controls': 'panel-more',
    })
    this.toggle.addEventListener('click', () => this.setExpanded(!draft.expanded))
    mount(app, header, this.pages.element, this.panel)
    this.setExpanded(draft.expanded)
    this.updateProgress()
    this.updateMissing()
    this.renderPanel(false)
    app.querySelector<HTMLElement>('.doc-title')?.focus()
    if (draft.resume) this.resume()
  }

  /** Back after a reload: the document at the field where work resumes, or the panel at Sign. */
  private resume(): void {
    this.draft.resume = false
    if (this.missing().length === 0) {
      this.inner.querySelector('.sign')?.scrollIntoView({ block: 'nearest' })
      return
    }
    this.scrollToCurrent()
  }

  private scrollToCurrent(): void {
    const field = this.fields[this.draft.current]
    if (!field) return
    const calm = window.matchMedia('(prefers-reduced-motion: reduce)').matches
    this.pages.overlays
      .get(field.name)?.[0]
      ?.scrollIntoView({ block: 'center', behavior: calm ? 'auto' : 'smooth' })
  }

  private missing(): Field[] {
    return this.fields.filter((f) => f.required && !isFilled(f, this.values.get(f.name)))
  }

  private paint(field: Field): void {
    const buttons = this.pages.overlays.get(field.name) ?? []
    const current = this.fields[this.draft.current] === field
    paintField(this.t, this.lang, buttons, field, this.values.get(field.name), current)
  }

  private setExpanded(expanded: boolean): void {
    const { draft, t } = this
    draft.expanded = expanded || this.fields.length === 0
    this.panel.classList.toggle('is-collapsed', !draft.expanded)
    this.toggle.setAttribute('aria-expanded', String(draft.expanded))
    this.toggle.textContent = draft.expanded ? t.panel_close : t.panel_open
  }

  private updateProgress(): void {
    const { t } = this
    const left = this.missing().length
    this.progress.textContent =
      left === 0 ? t.all_filled : left === 1 ? t.required_left_one : fill(t.required_left, { n: left })
  }

  /** The "Please fill in" error follows the fields as they are filled, and goes once none is left. */
  private updateMissing(): void {
    const { draft, t } = this
    const left = this.missing()
    if (left.length === 0) draft.showMissing = false
    this.message.textContent = draft.showMissing
      ? fill(t.missing_fields, { fields: left.map((f) => fieldLabel(t, f)).join(', ') })
      : ''
  }

  private set(field: Field, value: Value | undefined): void {
    const before = this.missing().length
    const previous = this.values.get(field.name)
    if (value === undefined || value === '') this.values.delete(field.name)
    else this.values.set(field.name, value)
    if (this.values.get(field.name) !== previous) this.saver.changed(field.name, this.values.get(field.name))
    this.paint(field)
    this.updateProgress()
    this.updateMissing()
    // Everything required is in: the panel opens on the consent and Sign.
    if (before > 0 && this.missing().length === 0) this.setExpanded(true)
  }

  private async makeImage(field: ImageField): Promise<void> {
    const { draft, t } = this
    const kind = field.type
    const previous = draft.adopted[kind]
    const signature = draft.adopted.signature
    const name = signature?.typed ?? this.form.submitter.name
    const made = await askForSignature(t, {
      kind,
      label: fieldLabel(t, field),
      suggestion: kind === 'initials' ? initialsOf(name) : (name ?? ''),
      mode: previous?.mode ?? (kind === 'initials' ? signature?.mode : draft.adopted.initials?.mode),
    })
    if (made) {
      draft.adopted[kind] = made
      // A new image replaces the one adopted before wherever it stands, so the document stays consistent.
      for (const other of this.fields) {
        if (previous && other.type === kind && this.values.get(other.name) === previous.png)
          this.set(other, made.png)
      }
      this.set(field, made.png)
    }
    // Back to the panel, on the field's control, so a keyboard user carries on from there.
    this.renderPanel(true)
  }

  private applyAdopted(field: ImageField): void {
    const adopted = this.draft.adopted[field.type]
    if (adopted) this.set(field, adopted.png)
  }

  /** A field picked on the document: an empty signature or initials takes the adopted image at once. */
  private pick(index: number): void {
    const field = this.fields[index]
    if (field && isImageField(field) && this.draft.adopted[field.type] && !this.isFilled(field)) {
      this.applyAdopted(field)
      this.select(index, false)
      return
    }
    this.select(index, true)
  }

  private isFilled(field: Field): boolean {
    return isFilled(field, this.values.get(field.name))
  }

  private select(index: number, focus: boolean): void {
    const { draft, fields } = this
    draft.current = Math.max(0, Math.min(fields.length - 1, index))
    this.renderPanel(focus)
    const field = fields[draft.current]
    if (!field) return
    this.scrollToCurrent()
    if (focus && isImageField(field) && !draft.adopted[field.type] && !this.isFilled(field)) {
      void this.makeImage(field)
    }
  }

  private fieldEditor(field: Field): HTMLElement {
    const image = isImageField(field) ? field : null
    return editor({
      t: this.t,
      lang: this.lang,
      field,
      id: `field-input-${this.draft.current}`,
      value: this.values.get(field.name),
      set: (value) => {
        this.set(field, value)
        if (image) this.renderPanel(true)
      },
      adopted: image ? this.draft.adopted[image.type] : undefined,
      makeImage: () => image && void this.makeImage(image),
      applyAdopted: () => {
        if (image) this.applyAdopted(image)
        this.renderPanel(true)
      },
    })
  }

  /** The panel on the current field: its name, its control, previous / next, then the consent and Sign. */
  private renderPanel(focus: boolean): void {
    const { draft, fields, t } = this
    for (const field of fields) this.paint(field)
    const field = fields[draft.current]
    const id = `field-input-${draft.current}`
    const sign = h('button', { type: 'button', class: 'primary sign' }, t.sign)
    sign.addEventListener('click', () => this.submit(sign))
    const nav = fieldNav(t, draft.current, fields.length, (step) =>
      this.select(this.draft.current + step, true),
    )
    mount(
      this.inner,
      field ? fieldHead(t, field, id, `${draft.current + 1} / ${fields.length}`, this.saver.status) : null,
      field ? this.fieldEditor(field) : null,
      field ? h('div', { class: 'nav-row' }, nav, this.toggle) : null,
      this.message,
      signingEnd(t, this.form.current_pdf_url, sign),
    )
    if (focus)
      (
        this.inner.querySelector<HTMLElement>(`#${id}`) ??
        this.inner.querySelector<HTMLElement>('input, select')
      )?.focus()
  }

  private async submit(button: HTMLButtonElement): Promise<void> {
    const { t } = this
    const left = this.missing()
    if (left.length > 0) {
      // To the FIRST missing field in reading order, the panel back on the field.
      this.draft.showMissing = true
      this.updateMissing()
      this.setExpanded(false)
      this.select(this.fields.indexOf(left[0] as Field), true)
      return
    }
    this.message.textContent = ''
    button.disabled = true
    button.textContent = t.signing
    // The signature carries every value: no save races it (one that lands after is refused anyway).
    this.saver.pause()
    try {
      // The page's language goes with the signature: the audit trail quotes the consent in it.
      await call('POST', 'sign', { values: Object.fromEntries(this.values), language: this.lang })
      this.events.finished('signed')
    } catch (failure) {
      this.saver.resume()
      button.disabled = false
      button.textContent = t.sign
      const code = failure instanceof ApiFailure ? failure.code : ''
      if (STALE.includes(code)) {
        this.events.stale()
        return
      }
      this.message.textContent = refusalText(t, failure)
    }
  }
}

/** What the panel says when the signature is refused: the server's words for a 422, ours otherwise. */
function refusalText(t: Texts, failure: unknown): string {
  if (failure instanceof ApiFailure && failure.status === 422 && failure.message) return failure.message
  return failure instanceof ApiFailure && failure.code === 'network' ? t.error_network : t.error_generic
}
