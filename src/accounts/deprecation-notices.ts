// `paraph deprecations notify` (docs/deprecations.md#telling-the-developers): the owner of every
// account whose live keys called a deprecated route in the last 30 UTC days is mailed once per
// route. The notice row and its mail are written in one transaction, and the row's primary key
// (account, route) makes "once" hold even when two runs overlap. Test keys never count. An account
// without an owner e-mail is reported, not recorded, so it is told on a later run once it has one.
import { sql } from 'kysely'
import type { Executor } from '../db/tables.ts'
import type { Deps } from '../deps.ts'
import type { AnyRoute } from '../http/define-route.ts'
import { enqueueMail, type MailMessage } from '../mail/mail-job.ts'
import { renderDeprecationNotice } from '../mail/messages/deprecation-notice.ts'
import { mailTexts } from '../mail/messages/texts.ts'
import { routeName, utcDay } from './key-activity.ts'

/** Days, today (UTC) included, in which a live key's call makes its account due a notice. */
export const NOTICE_WINDOW_DAYS = 30

export interface DeprecatedRoute {
  /** `GET /v1/submissions/:id`, as key activity records it. */
  route: string
  since: string
  sunset: string
  link: string | null
}

/** The deprecated routes of a route list (the app's, or a test build's). */
export function deprecatedRoutes(routes: AnyRoute[]): DeprecatedRoute[] {
  return routes.flatMap((r) =>
    r.deprecated
      ? [
          {
            route: routeName(r),
            since: r.deprecated.since,
            sunset: r.deprecated.sunset,
            link: r.deprecated.link ?? null,
          },
        ]
      : [],
  )
}

export interface NoticeDue {
  route: DeprecatedRoute
  accountId: string
  accountName: string
  ownerEmail: string | null
  /** `YYYY-MM-DD` of the latest call by one of the account's live keys. */
  lastCallDay: string
  keyHints: string[]
}

export type NoticeOutcome = NoticeDue & {
  outcome: 'queued' | 'would_queue' | 'no_owner_email' | 'already_noticed'
}

/** Accounts whose live keys called `route` since `fromDay` and that were never told about it. */
export async function accountsDue(
  db: Executor,
  route: DeprecatedRoute,
  fromDay: string,
): Promise<NoticeDue[]> {
  const rows = await db
    .selectFrom('key_route_days as d')
    .innerJoin('api_keys as k', 'k.id', 'd.key_id')
    .innerJoin('accounts as a', 'a.id', 'd.account_id')
    .leftJoin('deprecation_notices as n', (join) =>
      join.onRef('n.account_id', '=', 'd.account_id').onRef('n.route', '=', 'd.route'),
    )
    .select(['d.account_id', 'a.name', 'a.owner_email', 'k.key_hint', sql<string>`max(d.day)`.as('last_day')])
    .where('d.route', '=', route.route)
    .where('d.environment', '=', 'live')
    .where('d.day', '>=', fromDay)
    .where('n.account_id', 'is', null)
    .groupBy(['d.account_id', 'a.name', 'a.owner_email', 'd.key_id', 'k.key_hint'])
    .orderBy('d.account_id')
    .orderBy('k.key_hint')
    .execute()
  const byAccount = new Map<string, NoticeDue>()
  for (const row of rows) {
    const due = byAccount.get(row.account_id) ?? {
      route,
      accountId: row.account_id,
      accountName: row.name,
      ownerEmail: row.owner_email,
      lastCallDay: row.last_day,
      keyHints: [],
    }
    due.keyHints.push(row.key_hint)
    if (row.last_day > due.lastCallDay) due.lastCallDay = row.last_day
    byAccount.set(row.account_id, due)
  }
  return [...byAccount.values()]
}

/** Records the notice and queues its mail in one transaction; false when another run recorded it first. */
async function queueNotice(deps: Deps, due: NoticeDue & { ownerEmail: string }): Promise<boolean> {
  const { route } = due
  const message: MailMessage = {
    kind: 'deprecation_notice',
    to: due.ownerEmail,
    bcc: null,
    reply_to: null,
    ...renderDeprecationNotice(
      {
        ...route,
        lastCallDay: due.lastCallDay,
        keyHints: due.keyHints,
        account: `${due.accountName} (${due.accountId})`,
      },
      mailTexts(deps.config.mailLanguage),
    ),
    submission_id: null,
    submitter_id: null,
  }
  return deps.db.transaction().execute(async (tx) => {
    const inserted = await tx
      .insertInto('deprecation_notices')
      .values({
        account_id: due.accountId,
        route: route.route,
        sent_to: due.ownerEmail,
        queued_at: deps.clock.now().toISOString(),
      })
      .onConflict((oc) => oc.columns(['account_id', 'route']).doNothing())
      .executeTakeFirst()
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false
    await enqueueMail(tx, deps, message)
    return true
  })
}

/** One pass over every deprecated route of `routes`; with `dryRun`, nothing is written. */
export async function notifyDeprecations(
  deps: Deps,
  routes: AnyRoute[],
  options: { dryRun?: boolean } = {},
): Promise<NoticeOutcome[]> {
  const fromDay = utcDay(deps.clock.epochMs() - (NOTICE_WINDOW_DAYS - 1) * 86_400_000)
  const outcomes: NoticeOutcome[] = []
  for (const route of deprecatedRoutes(routes)) {
    for (const due of await accountsDue(deps.db, route, fromDay)) {
      const { ownerEmail } = due
      if (ownerEmail === null) outcomes.push({ ...due, outcome: 'no_owner_email' })
      else if (options.dryRun) outcomes.push({ ...due, outcome: 'would_queue' })
      else {
        const queued = await queueNotice(deps, { ...due, ownerEmail })
        outcomes.push({ ...due, outcome: queued ? 'queued' : 'already_noticed' })
      }
    }
  }
  return outcomes
}

const LABELS: Record<NoticeOutcome['outcome'], string> = {
  queued: 'queued     ',
  would_queue: 'would queue',
  no_owner_email: 'not sent   ',
  already_noticed: 'skipped    ',
}

/** What the command prints: one line per account and route, then a summary. */
export function describeOutcomes(outcomes: NoticeOutcome[], deprecated: number, dryRun: boolean): string[] {
  if (deprecated === 0) return ['No route is deprecated: nothing to send.']
  const lines = outcomes.map((o) => {
    const to =
      o.outcome === 'no_owner_email'
        ? 'the account has no owner e-mail'
        : o.outcome === 'already_noticed'
          ? 'another run queued it'
          : `to ${o.ownerEmail}`
    return `${LABELS[o.outcome]}  ${o.route.route}  ${o.accountId}  ${to}  (last call ${o.lastCallDay}; keys ${o.keyHints.join(', ')})`
  })
  const sent = outcomes.filter((o) => o.outcome === (dryRun ? 'would_queue' : 'queued')).length
  const unmailable = outcomes.filter((o) => o.outcome === 'no_owner_email').length
  const summary = dryRun ? `Dry run: ${sent} notice(s) would be queued` : `${sent} notice(s) queued`
  lines.push(
    `${summary} for ${deprecated} deprecated route(s)${unmailable ? `; ${unmailable} account(s) without an owner e-mail` : ''}.`,
  )
  return lines
}

/** What `--json` prints: the run and one entry per account and route, for scripts. */
export function outcomesJson(outcomes: NoticeOutcome[], deprecated: number, dryRun: boolean) {
  return {
    object: 'deprecation_notice_run',
    dry_run: dryRun,
    deprecated_routes: deprecated,
    notices: outcomes.map((o) => ({
      route: o.route.route,
      since: o.route.since,
      sunset: o.route.sunset,
      account_id: o.accountId,
      owner_email: o.ownerEmail,
      last_call_day: o.lastCallDay,
      key_hints: o.keyHints,
      outcome: o.outcome,
    })),
  }
}
