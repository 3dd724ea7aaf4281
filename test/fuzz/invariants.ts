// What must hold for every response, whatever was sent: never a 5xx; every 4xx body exactly the
// envelope (docs/api.md#errors) with a code the route declares, and the status and type errors.ts
// gives that code; and a refused request changes no row of any table.
import type { LightMyRequestResponse } from 'fastify'
import { sql } from 'kysely'
import type { Db, Tables } from '../../src/db/tables.ts'
import { type ErrorCode, statusOf, typeOf } from '../../src/errors.ts'
import type { FuzzRequest } from './fuzz-request.ts'
import { isObject } from './json-tree.ts'

/** Every table; `satisfies` makes a table added to tables.ts a compile error here until counted. */
const COUNTED = {
  accounts: true,
  api_keys: true,
  idempotency_keys: true,
  events: true,
  jobs: true,
  bootstrap: true,
  templates: true,
  submissions: true,
  submitters: true,
  email_2fa_codes: true,
  signing_progress: true,
  webhook_endpoints: true,
  webhook_deliveries: true,
  webhook_attempts: true,
  signatures: true,
  signature_days: true,
  key_route_days: true,
  deprecation_notices: true,
  request_log_batches: true,
  members: true,
  console_sign_in_links: true,
  console_sessions: true,
  console_sign_in_requests: true,
  template_drafts: true,
  signing_request_resends: true,
  group_members: true,
  bulk_sends: true,
  bulk_send_rows: true,
  retention_policies: true,
  legal_holds: true,
  legal_hold_submissions: true,
  erasures: true,
} as const satisfies Record<keyof Tables, true>

/**
 * Not compared: bookkeeping written for every authenticated call, refused ones included, in the
 * background or in batches at any moment (a key's routes per day, request logs).
 */
const NOT_COMPARED: ReadonlySet<string> = new Set(['key_route_days', 'request_log_batches'])

export type RowCounts = Record<string, number>

/** Rows per table, in one round trip. */
export async function rowCounts(db: Db): Promise<RowCounts> {
  const columns = Object.keys(COUNTED)
    .filter((table) => !NOT_COMPARED.has(table))
    .map((table) => sql<number>`(select count(*) from ${sql.table(table)})`.as(table))
  const row = await db.selectNoFrom(columns).executeTakeFirstOrThrow()
  return Object.fromEntries(Object.entries(row).map(([table, n]) => [table, Number(n)]))
}

/** `submissions 3 → 4` for every table whose count moved, or undefined. */
export function countChanges(before: RowCounts, after: RowCounts): string | undefined {
  const moved = Object.keys(before).filter((table) => before[table] !== after[table])
  if (moved.length === 0) return undefined
  return `a refused request changed rows: ${moved.map((t) => `${t} ${before[t]} → ${after[t]}`).join(', ')}`
}

function envelopeProblem(response: LightMyRequestResponse, allowed: ReadonlySet<string>): string | undefined {
  let body: unknown
  try {
    body = JSON.parse(response.body)
  } catch {
    return 'the error body is not JSON'
  }
  if (!isObject(body) || Object.keys(body).join() !== 'error')
    return 'the error body is not exactly { error }'
  const { error } = body
  const keys = Object.keys(error ?? {})
    .filter((key) => key !== 'param')
    .sort()
    .join()
  if (!isObject(error) || keys !== 'code,message,type') {
    return 'error is not exactly { type, code, message } and an optional param'
  }
  const { type, code, message, param } = error
  if (typeof type !== 'string' || typeof code !== 'string' || typeof message !== 'string') {
    return 'type, code and message are not all strings'
  }
  // docs/api.md#errors: `param` names the request field the message begins with.
  if (param !== undefined && (typeof param !== 'string' || !message.startsWith(`${param}: `))) {
    return `param ${JSON.stringify(param)} is not the field the message begins with`
  }
  if (!allowed.has(code)) return `code ${code} is not one the route declares (${[...allowed].join(', ')})`
  const expected = statusOf(code as ErrorCode)
  if (expected !== response.statusCode) return `code ${code} goes with HTTP ${expected} (errors.ts)`
  if (typeOf(code as ErrorCode) !== type) return `type ${type} is not the type of ${code}`
  if (!String(response.headers['content-type']).startsWith('application/json'))
    return 'the error is not sent as JSON'
  if (/\n\s+at /.test(message)) return 'the message carries a stack trace'
  return undefined
}

/** The first broken rule for this response, or undefined. */
export function responseProblem(
  request: FuzzRequest,
  response: LightMyRequestResponse,
  allowed: ReadonlySet<string>,
): string | undefined {
  const status = response.statusCode
  if (status >= 500) return `answered ${status}`
  if (status >= 300 && status < 400) {
    // A redirect (GET /console → /console/) may only lead to a path of this server: never an open
    // redirect, whatever the request carried.
    const location = String(response.headers.location ?? '')
    if (/^\/(?![/\\])/.test(location)) return undefined
    return `answered ${status} to "${location}": a redirect off this server`
  }
  if (status < 200) return `answered ${status}: neither a success nor a 4xx`
  // HEAD answers carry no body to check.
  if (status < 400 || request.method === 'HEAD') return undefined
  return envelopeProblem(response, allowed)
}
