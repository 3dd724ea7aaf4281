// Dates and amounts in the person's language (Intl), never hand-formatted.
import type { Language } from './texts.ts'

const dateTimes = new Map<string, Intl.DateTimeFormat>()

export function formatDateTime(language: Language, iso: string | null | undefined): string {
  if (!iso) return '—'
  let format = dateTimes.get(language)
  if (!format) {
    format = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' })
    dateTimes.set(language, format)
  }
  return format.format(new Date(iso))
}

/** Minor units (cents) → `12,34 €` / `€12.34`. */
export function formatMoney(language: Language, minor: number, currency: string): string {
  const format = new Intl.NumberFormat(language, { style: 'currency', currency })
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2
  return format.format(minor / 10 ** digits)
}

export function formatNumber(language: Language, value: number): string {
  return new Intl.NumberFormat(language).format(value)
}
