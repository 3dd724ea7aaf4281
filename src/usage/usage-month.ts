// A calendar month of usage (docs/usage.md#get-v1usagemonthyyyy-mm), all in UTC: `YYYY-MM` read and
// checked, its time range, and the days shown (every day of the month up to today). Pure: "now" is
// given.
import { fieldError } from '../errors.ts'
import type { DayRange } from './signature-ledger.ts'

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/

export interface UsageMonth {
  /** `YYYY-MM`. */
  month: string
  /** Its days: from the 1st to the next month's 1st, excluded. */
  range: DayRange
  /** Every day of the month up to today (UTC), `YYYY-MM-DD`; none for a month still to come. */
  days: string[]
}

/** The month a `YYYY-MM` names; the current UTC month when absent. 422 `invalid_month` otherwise. */
export function usageMonth(raw: string | undefined, now: Date): UsageMonth {
  const value = raw ?? now.toISOString().slice(0, 7)
  const match = MONTH.exec(value)
  const year = Number(match?.[1])
  if (!match || year < 1970) {
    throw fieldError(
      'invalid_month',
      'month',
      `expected a calendar month written YYYY-MM, e.g. 2026-11, from 1970-01 on (got "${value.slice(0, 20)}").`,
    )
  }
  const monthIndex = Number(match[2]) - 1
  const start = new Date(Date.UTC(year, monthIndex, 1))
  const end = new Date(Date.UTC(year, monthIndex + 1, 1))
  const today = now.toISOString().slice(0, 10)
  const days: string[] = []
  for (let day = start; day < end; day = new Date(day.getTime() + 86_400_000)) {
    const date = isoDay(day)
    if (date > today) break
    days.push(date)
  }
  return { month: value, range: { from: isoDay(start), to: isoDay(end) }, days }
}

const isoDay = (date: Date) => date.toISOString().slice(0, 10)
