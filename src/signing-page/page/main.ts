// The signing page's script (operations.md §3): reads the signer's form and shows the screen its
// `state` calls for. Opening is recorded by POST …/open when the form is shown, never by the GET of
// the page (mail scanners prefetch links). In embed mode the parent window hears `paraph:opened`,
// `paraph:signed` and `paraph:declined`.
import './styles.css'
import { call } from './api.ts'
import type { SigningForm } from './form.ts'
import { codeScreen, endedScreen, errorScreen } from './screens.ts'
import { type Language, TEXTS } from './texts.ts'
import { signingView } from './view.ts'

interface PageConfig {
  lang: Language
  mode: 'link' | 'embed'
}

const config = JSON.parse(document.getElementById('paraph-config')?.textContent ?? '{}') as PageConfig
const t = TEXTS[config.lang] ?? TEXTS.en
const app = document.getElementById('app') as HTMLElement
let opened = false

function tellParent(type: 'paraph:opened' | 'paraph:signed' | 'paraph:declined', form: SigningForm): void {
  if (config.mode !== 'embed' || window.parent === window) return
  // Ids only: nothing secret travels, so any embedding origin may hear it.
  window.parent.postMessage({ type, submitter_id: form.submitter.id, submission_id: form.submission.id }, '*')
}

async function load(): Promise<void> {
  let form: SigningForm
  try {
    form = await call<SigningForm>('GET', 'form')
  } catch (failure) {
    errorScreen(app, t, failure, () => void load())
    return
  }
  document.title = form.documents.length
    ? t.page_title.replace('{document}', form.documents.map((d) => d.name).join(', '))
    : t.page_title_plain
  if (form.state === 'email_2fa_required') {
    codeScreen(app, t, form, () => void load())
    return
  }
  if (form.state !== 'ready') {
    endedScreen(app, t, form)
    return
  }
  signingView(app, t, form, {
    finished: (kind) => {
      tellParent(kind === 'signed' ? 'paraph:signed' : 'paraph:declined', form)
      if (kind === 'signed' && form.redirect_url && config.mode === 'link') {
        app.replaceChildren(
          Object.assign(document.createElement('p'), { className: 'loading', textContent: t.redirecting }),
        )
        window.location.assign(form.redirect_url)
        return
      }
      void load()
    },
    stale: () => void load(),
  })
  if (!opened) {
    opened = true
    // Recorded once per page view; repeating it changes nothing on the server either.
    await call('POST', 'open').then(
      () => tellParent('paraph:opened', form),
      () => {
        opened = false
      },
    )
  }
}

void load()
