// Dates and numbers as the signer reads and writes them: a date is sent as YYYY-MM-DD
// (docs/api.md#signing) but shown in the signer's language; a number may be typed with a decimal
// comma.
import type { Language } from './texts.ts'

/** The browser's own locale when it speaks the page's language (en-GB: 23 Nov 2026), else the language. */
export function localeFor(lang: Language): string {
  // Through globalThis: this file's pure functions are unit-tested under Node, which has no navigator.
  const browser = (globalThis as { navigator?: { languages?: readonly string[] } }).navigator
  const own = (browser?.languages ?? []).find((tag) => tag.toLowerCase().split('-')[0] === lang)
  try {
    return Intl.DateTimeFormat.supportedLocalesOf(own ?? lang)[0] ?? lang
  } catch {
    return lang
  }
}

/** `2026-11-23` as the signer's language writes it (23 nov. 2026); anything else as it is. */
export function formatDate(iso: string, lang: Language): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso)
  if (!match) return iso
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])))
  return new Intl.DateTimeFormat(localeFor(lang), { dateStyle: 'medium', timeZone: 'UTC' }).format(date)
}

/** `23 November 2026 at 10:00 UTC`: an instant as the signer's language writes it, in UTC. */
export function formatDateTimeUtc(iso: string, lang: Language): string {
  const format = { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' } as const
  return `${new Intl.DateTimeFormat(localeFor(lang), format).format(new Date(iso))} UTC`
}

/** The signer's today, on their own clock and in their own zone, as YYYY-MM-DD. */
export function todayIso(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`
}

/** The years a date field takes (the server refuses the others). */
export const YEARS = { min: 1900, max: 2200 }

export function yearInRange(iso: string): boolean {
  const year = Number(iso.slice(0, 4))
  return year >= YEARS.min && year <= YEARS.max
}

/**
 * A typed number: spaces and apostrophes as thousands separators; a lone `,` or `.` is the decimal
 * mark; with both, the last one is. Null when the text is not a number.
 */
export function parseNumber(text: string): number | null {
  const s = text.replace(/[\s\u00a0\u202f']/g, '')
  if (!/^[+-]?(\d|[.,]\d)[\d.,]*$/.test(s)) return null
  const marks = s.match(/[.,]/g) ?? []
  const last = Math.max(s.lastIndexOf('.'), s.lastIndexOf(','))
  const decimal = s[last] ?? '.'
  let plain = s
  if (new Set(marks).size === 2) {
    // 1.250,50 or 1,250.50: the last mark is the decimal one, and comes once.
    if (marks.filter((m) => m === decimal).length !== 1) return null
    plain = `${s.slice(0, last).replace(/[.,]/g, '')}.${s.slice(last + 1)}`
  } else if (marks.length === 1) {
    plain = s.replace(decimal, '.')
  } else if (marks.length > 1) {
    // 1.250.000: thousands only, in groups of three.
    if (!/^[+-]?\d{1,3}([.,]\d{3})+$/.test(s)) return null
    plain = s.replace(/[.,]/g, '')
  }
  const value = Number(plain)
  return Number.isFinite(value) ? value : null
}

/** A number written as the signer's language writes it, for the example in an error. */
export function numberExample(lang: Language): string {
  return new Intl.NumberFormat(localeFor(lang), { minimumFractionDigits: 2, useGrouping: false }).format(
    1250.5,
  )
}

/** A number as the signer's language writes it, without grouping (1250,5 in French). */
export function formatNumber(value: number, lang: Language): string {
  return new Intl.NumberFormat(localeFor(lang), { useGrouping: false, maximumFractionDigits: 20 }).format(
    value,
  )
}
