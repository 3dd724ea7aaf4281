// `paraph purge` (docs/privacy.md#the-operators-part): what the retention policies delete today
// (`--dry-run`, nothing changed) or the same purged now (`--now`), all in one run, rather than slice by
// slice as the workers do. Each purge is the one of POST /v1/submissions/{id}/purge (privacy/purge.ts).
import { applyRetention, retentionPlan } from '../privacy/apply-retention.ts'
import { CliError, withDeps } from './context.ts'

/** Submissions listed per policy in the text output (the JSON lists them all). */
const LISTED = 20

export async function purgeCommand(options: {
  dryRun?: boolean
  now?: boolean
  json?: boolean
}): Promise<void> {
  if (Boolean(options.dryRun) === Boolean(options.now)) {
    throw new CliError(
      'give one of --dry-run (show what the retention policies delete today) or --now (purge it now)',
    )
  }
  await withDeps(async (deps) => {
    const plans = await retentionPlan(deps)
    const due = plans.reduce((n, p) => n + p.due.length, 0)
    if (options.dryRun) {
      if (options.json) {
        console.log(
          JSON.stringify(
            plans.map((p) => ({
              account_id: p.scope.accountId,
              environment: p.scope.environment,
              delete_after_days: p.delete_after_days,
              applies_to: p.applies_to,
              submissions: p.due,
            })),
          ),
        )
        return
      }
      if (plans.length === 0)
        console.log('No retention policy deletes anything: every account keeps its submissions.')
      for (const plan of plans) {
        console.log(
          `${plan.scope.accountId} ${plan.scope.environment}: ${plan.applies_to.join(', ')} submissions ended more than ${plan.delete_after_days} days ago — ${plan.due.length} to purge`,
        )
        for (const s of plan.due.slice(0, LISTED))
          console.log(`  ${s.id}  ${s.status.padEnd(9)}  ended ${s.ended_at}`)
        if (plan.due.length > LISTED)
          console.log(`  … and ${plan.due.length - LISTED} more (--json lists all)`)
      }
      console.log(`${due} submission(s) would be purged. Nothing was changed (--dry-run).`)
      return
    }
    const started = performance.now()
    const purged = await applyRetention(deps, Number.POSITIVE_INFINITY)
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    if (options.json) console.log(JSON.stringify({ purged, seconds: Number(seconds) }))
    else console.log(`${purged} submission(s) purged in ${seconds} s.`)
  })
}
