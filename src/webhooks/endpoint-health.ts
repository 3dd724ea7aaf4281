// docs/api.md#health: after 8 consecutive failed attempts the endpoint is `failing` and its owner
// is mailed once; 7 days into a run of failures without a success it is disabled (it then receives
// nothing until a test event gets a 2xx). Any success ends the run. Pure: the store writes what
// this decides, with the endpoint row locked.
import type { WebhookEndpointsTable } from '../db/tables.ts'
import { toIso } from '../lib/clock.ts'

export const FAILING_AFTER_FAILURES = 8
export const DISABLE_AFTER_MS = 7 * 24 * 60 * 60 * 1000

export type HealthColumns = Pick<
  WebhookEndpointsTable,
  | 'consecutive_failures'
  | 'failing'
  | 'failing_since'
  | 'disabled_at'
  | 'last_success_at'
  | 'last_success_status'
  | 'last_failure_at'
  | 'last_failure_reason'
>

export interface HealthChange {
  set: Partial<HealthColumns>
  /** This failure made the endpoint failing: mail the owner (once per run of failures). */
  becameFailing: boolean
  /** This failure disabled the endpoint: its pending deliveries are dropped. */
  becameDisabled: boolean
}

export function afterSuccess(status: number, at: Date): HealthChange {
  return {
    set: {
      consecutive_failures: 0,
      failing: 0,
      failing_since: null,
      last_success_at: toIso(at),
      last_success_status: status,
    },
    becameFailing: false,
    becameDisabled: false,
  }
}

/** A 2xx from the test endpoint also lifts the automatic disabling (docs/api.md#testing-an-endpoint). */
export function afterTestSuccess(status: number, at: Date): HealthChange {
  const change = afterSuccess(status, at)
  return { ...change, set: { ...change.set, disabled_at: null } }
}

export function afterFailure(row: HealthColumns, reason: string, at: Date): HealthChange {
  const failures = row.consecutive_failures + 1
  const since = row.failing_since ?? toIso(at)
  const failing = failures >= FAILING_AFTER_FAILURES
  const disable = failing && row.disabled_at === null && at.getTime() - Date.parse(since) >= DISABLE_AFTER_MS
  return {
    set: {
      consecutive_failures: failures,
      failing: failing ? 1 : 0,
      failing_since: since,
      last_failure_at: toIso(at),
      last_failure_reason: reason.slice(0, 500),
      ...(disable ? { disabled_at: toIso(at) } : {}),
    },
    becameFailing: failing && row.failing === 0,
    becameDisabled: disable,
  }
}

/** The sweep's rule, for endpoints whose last failure was long ago: disabled once 7 days have passed. */
export function dueForDisabling(row: HealthColumns, at: Date): boolean {
  return (
    row.failing === 1 &&
    row.disabled_at === null &&
    row.failing_since !== null &&
    at.getTime() - Date.parse(row.failing_since) >= DISABLE_AFTER_MS
  )
}
