// The signing page's script (docs/api.md#the-signing-page): reads the signer's form and shows the
// screen its `state` calls for. Opening is recorded by POST …/open when the form is shown, never by
// the GET of the page (mail scanners prefetch links). In embed mode the parent window hears
// `paraph:opened`, `paraph:signed` and `paraph:declined`, at the embedding origin the server names
// and nowhere else. The language picker redraws the current screen in place, keeping what was
// entered; what is entered is also saved on the server as the signer goes (progress.ts).
import './styles.css'
import { call } from './api.ts'
import { type Draft, newDraft } from './draft.ts'
import { type SigningForm, titleOf } from './form.ts'
import { languagePicker, PICKER_ID } from './language-picker.ts'
import { ProgressSaver } from './progress.ts'
import { type CodeState, codeScreen, endedScreen, errorScreen } from './screens.ts'
import { fill, isLanguage, type Language, TEXTS } from './texts.ts'
import { signingView } from './view.ts'

interface PageConfig {
  lang: Language
  mode: 'link' | 'embed'
  /** Embed mode: the origin of the page that frames this one; null (or absent): no message is posted. */
  embed_origin?: string | null
}

const STORED_LANGUAGE = 'paraph.language'
const config = JSON.parse(document.getElementById('paraph-config')?.textContent ?? '{}') as PageConfig
const app = document.getElementById('app') as HTMLElement
let lang: Language = storedLanguage() ?? (isLanguage(config.lang) ? config.lang : 'en')
let redraw: () => void = () => {}
let opened = false

/** The signer's own choice from an earlier visit, where the browser lets the page keep one. */
function storedLanguage(): Language | null {
  try {
    const stored = window.localStorage.getItem(STORED_LANGUAGE)
    return isLanguage(stored) ? stored : null
  } catch {
    return null
  }
}

function chooseLanguage(next: Language): void {
  lang = next
  try {
    window.localStorage.setItem(STORED_LANGUAGE, next)
  } catch {
    // Storage refused (private mode, a framed page's partition): the choice holds for this view.
  }
  document.documentElement.lang = next
  redraw()
  document.getElementById(PICKER_ID)?.focus()
}

const picker = () => languagePicker(TEXTS[lang], lang, chooseLanguage)

function tellParent(type: 'paraph:opened' | 'paraph:signed' | 'paraph:declined', form: SigningForm): void {
  if (config.mode !== 'embed' || window.parent === window) return
  // Never '*'. Ids only travel, but only the embedding page has any business hearing them.
  if (!config.embed_origin) return
  window.parent.postMessage(
    { type, submitter_id: form.submitter.id, submission_id: form.submission.id },
    config.embed_origin,
  )
}

function setTitle(form: SigningForm): void {
  const t = TEXTS[lang]
  const title = titleOf(form)
  document.title = title ? fill(t.page_title, { document: title }) : t.page_title_plain
}

/** After a sign or a decline: tell the embedding page, then go to `redirect_url` or read the form again. */
function answered(form: SigningForm, kind: 'signed' | 'declined'): void {
  tellParent(kind === 'signed' ? 'paraph:signed' : 'paraph:declined', form)
  if (kind === 'signed' && form.redirect_url && config.mode === 'link') {
    app.replaceChildren(
      Object.assign(document.createElement('p'), {
        className: 'loading',
        textContent: TEXTS[lang].redirecting,
      }),
    )
    window.location.assign(form.redirect_url)
    return
  }
  void load()
}

/** The screen for `form`, as a function that draws it again in the current language. */
function screenFor(form: SigningForm): () => void {
  if (form.state === 'email_2fa_required') {
    const state: CodeState = { sent: false }
    return () => codeScreen(app, TEXTS[lang], form, () => void load(), picker(), state)
  }
  if (form.state !== 'ready') return () => endedScreen(app, TEXTS[lang], lang, form, picker())
  const draft: Draft = newDraft(form)
  // One saver per form read, kept across redraws like the draft; spent once the link is answered.
  const saver = new ProgressSaver(TEXTS[lang])
  if (form.progress) saver.restored()
  const events = {
    finished: (kind: 'signed' | 'declined') => {
      saver.stop()
      answered(form, kind)
    },
    stale: () => {
      saver.stop()
      void load()
    },
  }
  return () => {
    saver.setTexts(TEXTS[lang])
    signingView(app, { t: TEXTS[lang], lang, form, draft, picker: picker(), saver, events })
  }
}

async function load(): Promise<void> {
  let form: SigningForm
  try {
    form = await call<SigningForm>('GET', 'form')
  } catch (failure) {
    redraw = () => errorScreen(app, TEXTS[lang], failure, () => void load(), picker())
    redraw()
    return
  }
  const draw = screenFor(form)
  redraw = () => {
    setTitle(form)
    draw()
  }
  redraw()
  if (form.state !== 'ready' || opened) return
  opened = true
  // Recorded once per page view; repeating it changes nothing on the server either.
  await call('POST', 'open').then(
    () => tellParent('paraph:opened', form),
    () => {
      opened = false
    },
  )
}

document.documentElement.lang = lang
void load()
