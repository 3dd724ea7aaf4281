// The console's languages: English and French, chosen from the browser unless the person picked one
// (remembered in localStorage). Pages read their texts with useTexts().
import { createContext } from 'preact'
import { useContext } from 'preact/hooks'
import { EN } from './texts-en.ts'
import { FR } from './texts-fr.ts'

export type Texts = typeof EN
export type Language = 'en' | 'fr'
export const LANGUAGES: Record<Language, Texts> = { en: EN, fr: FR }
const STORAGE_KEY = 'paraph.console.language'

export function initialLanguage(): Language {
  const saved = localStorage.getItem(STORAGE_KEY)
  if (saved === 'en' || saved === 'fr') return saved
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = tag.toLowerCase().split('-')[0]
    if (base === 'en' || base === 'fr') return base
  }
  return 'en'
}

export function rememberLanguage(language: Language): void {
  localStorage.setItem(STORAGE_KEY, language)
  document.documentElement.lang = language
}

export const LanguageContext = createContext<{ language: Language; t: Texts }>({ language: 'en', t: EN })

export const useTexts = () => useContext(LanguageContext)

/** `{n} of {total} signed` with its values. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => String(values[name] ?? whole))
}
