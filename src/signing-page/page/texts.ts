// Every text of the signing page, one object per language (texts-en.ts is the reference; the others
// must have exactly its keys), so a translation is one more file. Used by the page's script and by
// the server (the HTML shell's title, its error pages). German and Spanish join English
// and French; the server picks from Accept-Language, the page's picker changes it.
import { DE } from './texts-de.ts'
import { EN, type Texts } from './texts-en.ts'
import { ES } from './texts-es.ts'
import { FR } from './texts-fr.ts'

export type { TextKey, Texts } from './texts-en.ts'

export const TEXTS = { en: EN, fr: FR, de: DE, es: ES } as const satisfies Record<string, Texts>

export type Language = keyof typeof TEXTS

export const LANGUAGES = Object.keys(TEXTS) as Language[]

/** Each language by its own name, for the picker. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  fr: 'Français',
  de: 'Deutsch',
  es: 'Español',
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as string[]).includes(value)
}

/** `{name}` replaced by `values.name`; other braces stay. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : whole,
  )
}

/**
 * The best language for an Accept-Language header (RFC 9110 §12.5.4): the highest-weighted range
 * whose primary tag we have, English when none does.
 */
export function pickLanguage(header: string | undefined): Language {
  if (!header) return 'en'
  const ranges = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';')
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean)
      return {
        primary: tag.trim().toLowerCase().split('-')[0] ?? '',
        q: q === undefined ? 1 : Number(q),
        index,
      }
    })
    .filter((r) => r.primary && Number.isFinite(r.q) && r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
  for (const range of ranges) {
    if (isLanguage(range.primary)) return range.primary
  }
  return 'en'
}
