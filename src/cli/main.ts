// argv → command. The only process.exit in the code base.
import { Command } from 'commander'
import {
  accountsCreate,
  deprecationsNotify,
  keysCreate,
  keysList,
  keysRevoke,
  migrateCommand,
} from './admin.ts'
import { backupCommand, restoreCommand } from './backup.ts'
import { CliError } from './context.ts'
import { mailList } from './mail.ts'
import { mcpCommand } from './mcp.ts'
import { consoleLink, membersAdd, membersList } from './members.ts'
import { purgeCommand } from './purge.ts'
import { serve } from './serve.ts'
import { usageCommand } from './usage.ts'
import { worker } from './worker.ts'

const program = new Command()
  .name('paraph')
  .description('Paraph electronic-signature service')
  .showHelpAfterError()

program
  .command('serve')
  .description('API, signing pages and background workers in one process (runs pending migrations first)')
  .option('--no-worker', 'do not run background jobs in this process (run `paraph worker` elsewhere)')
  .action((options: { worker: boolean }) => serve(options))

program
  .command('worker')
  .description('run background jobs only')
  .action(() => worker())
program
  .command('migrate')
  .description('apply pending database migrations and exit')
  .action(() => migrateCommand())

program
  .command('backup')
  .description(
    'copy the embedded SQLite database, blob folder and kept secret into an empty folder while the service runs',
  )
  .requiredOption('--to <dir>', 'a new or empty folder, outside DATA_DIR')
  .action((options: { to: string }) => backupCommand(options))
program
  .command('restore')
  .description('restore a backup made by `paraph backup` into an empty DATA_DIR, after checking every file')
  .requiredOption('--from <dir>', 'the folder `paraph backup --to` wrote')
  .action((options: { from: string }) => restoreCommand(options))

const accounts = program.command('accounts').description('manage accounts')
accounts
  .command('create')
  .description('create an account with one test and one live key (shown once)')
  .requiredOption('--name <name>', 'account name')
  .option('--email <owner_email>', 'owner address, receives notices such as a failing webhook endpoint')
  .option('--json', 'print {"account_id","test_key","live_key"} as JSON')
  .action((options) => accountsCreate(options))

const keys = program.command('keys').description('manage API keys')
keys
  .command('create')
  .description('issue a new key for an account (shown once)')
  .requiredOption('--account <id>', 'account id (acct_…)')
  .requiredOption('--env <env>', 'test or live')
  .option(
    '--name <name>',
    'what the key is for (at most 100 characters), shown in key lists and request logs',
  )
  .option('--json', 'print the key as JSON')
  .action((options) => keysCreate(options))
keys
  .command('revoke')
  .description('revoke a key at once')
  .argument('<key_id>', 'key id (key_…)')
  .action((keyId: string) => keysRevoke(keyId))
keys
  .command('list')
  .description('list the keys of an account: id, environment, hint, created, revoked, last used, name')
  .requiredOption('--account <id>', 'account id (acct_…)')
  .option('--json', 'print JSON')
  .action((options) => keysList(options))

const members = program
  .command('members')
  .description("manage an account's console members (docs/console.md)")
members
  .command('add')
  .description("let an address sign in to the account's console")
  .requiredOption('--account <id>', 'account id (acct_…)')
  .requiredOption('--email <address>', "the member's address")
  .option('--role <role>', 'admin or editor', 'admin')
  .option('--json', 'print the member as JSON')
  .action((options) => membersAdd(options))
members
  .command('list')
  .description('list the console members of an account: id, role, address, added, last sign-in')
  .requiredOption('--account <id>', 'account id (acct_…)')
  .option('--json', 'print JSON')
  .action((options) => membersList(options))

program
  .command('console-link')
  .description(
    'print a console sign-in link (valid 15 minutes, once) for each account of a member, without mail',
  )
  .requiredOption('--email <address>', "the member's address")
  .option('--account <id>', 'only this account (acct_…)')
  .option('--json', 'print a JSON array, one object per account')
  .action((options) => consoleLink(options))

program
  .command('deprecations')
  .description('deprecated API routes (docs/deprecations.md)')
  .command('notify')
  .description(
    'mail each account owner whose live keys called a deprecated route in the last 30 days, once per route',
  )
  .option('--dry-run', 'print what would be queued and queue nothing')
  .option('--json', 'print JSON')
  .action((options: { dryRun?: boolean; json?: boolean }) => deprecationsNotify(options))

program
  .command('mail')
  .description('the mail outbox')
  .command('list')
  .description('list queued and sent mail, newest first')
  .option('--limit <n>', 'how many', '20')
  .option('--json', 'print JSON')
  .action((options) => mailList(options))

program
  .command('purge')
  .description(
    'apply the retention policies (docs/privacy.md): --dry-run lists what they delete today, --now purges it now',
  )
  .option('--dry-run', 'list the submissions the policies would purge today; change nothing')
  .option('--now', 'purge them now, all in one run, rather than slice by slice as the workers do')
  .option('--json', 'print JSON')
  .action((options: { dryRun?: boolean; now?: boolean; json?: boolean }) => purgeCommand(options))

program
  .command('mcp')
  .description(
    'an MCP server on stdio for AI agents (docs/mcp.md), calling the Paraph at PARAPH_URL with the key in PARAPH_API_KEY',
  )
  .action(() => mcpCommand())

program
  .command('usage')
  .description("every account's live signatures of a month, their tier and amount (docs/usage.md)")
  .option('--month <YYYY-MM>', 'UTC month (default: the current one)')
  .option('--json', 'print a JSON array, one object per account')
  .option('--csv', 'print RFC 4180 CSV with a header row')
  .action((options) => usageCommand(options))

try {
  await program.parseAsync(process.argv)
} catch (error) {
  if (error instanceof CliError) {
    console.error(`paraph: ${error.message}`)
  } else {
    console.error(error)
  }
  process.exit(1)
}
