// The language picker: every language by its own name, so a signer who cannot read the
// current one still finds theirs. The server picks the first language from Accept-Language.
import { h } from './dom.ts'
import { LANGUAGE_NAMES, LANGUAGES, type Language, type Texts } from './texts.ts'

export const PICKER_ID = 'language'

export function languagePicker(t: Texts, current: Language, choose: (lang: Language) => void): HTMLElement {
  const select = h('select', { id: PICKER_ID, class: 'language-select' })
  for (const lang of LANGUAGES) {
    select.append(h('option', { value: lang, lang, selected: lang === current }, LANGUAGE_NAMES[lang]))
  }
  select.addEventListener('change', () => choose(select.value as Language))
  return h(
    'div',
    { class: 'language' },
    h('label', { for: PICKER_ID, class: 'visually-hidden' }, t.language),
    select,
  )
}
