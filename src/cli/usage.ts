// `paraph usage [--month YYYY-MM] [--json | --csv]`
// (docs/usage.md#npx-paraph-usage---month-yyyy-mm---json----csv): the month's live signatures and
// price of every account, for the operator's invoicing.
import { ApiError } from '../errors.ts'
import { usageMonth } from '../usage/usage-month.ts'
import { toCsv, toTable, usageReport } from '../usage/usage-report.ts'
import { CliError, withDeps } from './context.ts'

export async function usageCommand(options: {
  month?: string
  json?: boolean
  csv?: boolean
}): Promise<void> {
  if (options.json && options.csv) throw new CliError('--json and --csv cannot be used together')
  const rows = await withDeps(async (deps) => {
    let month: ReturnType<typeof usageMonth>
    try {
      month = usageMonth(options.month, deps.clock.now())
    } catch (error) {
      if (error instanceof ApiError) throw new CliError(error.message.replace(/^month:/, '--month:'))
      throw error
    }
    return usageReport(deps.db, deps.config, month)
  })
  if (options.json) process.stdout.write(`${JSON.stringify(rows)}\n`)
  else if (options.csv) process.stdout.write(toCsv(rows))
  else process.stdout.write(toTable(rows))
}
