// `paraph backup --to DIR` and `paraph restore --from DIR` (docs/operations.md
// "Backups"): progress on standard error, one summary line on standard output.
import { resolve } from 'node:path'
import { BackupError } from '../backup/data-layout.ts'
import { restoreBackup } from '../backup/restore-backup.ts'
import { megabytes, takeBackup } from '../backup/take-backup.ts'
import { systemClock } from '../lib/clock.ts'
import { CliError, loadConfig } from './context.ts'

const progress = (command: string) => (line: string) => process.stderr.write(`${command}: ${line}\n`)

async function refusalsAsCliErrors<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    if (error instanceof BackupError) throw new CliError(error.message)
    throw error
  }
}

export async function backupCommand(options: { to: string }): Promise<void> {
  const config = loadConfig()
  const target = resolve(options.to)
  const summary = await refusalsAsCliErrors(() => takeBackup(config, target, systemClock, progress('backup')))
  const kept = summary.keptFiles.length > 0 ? `, ${summary.keptFiles.join(' and ')}` : ''
  process.stdout.write(
    `Backup complete in ${summary.dir}: database ${megabytes(summary.databaseBytes)}, ${summary.blobs} blobs ${megabytes(summary.blobBytes)}${kept}; manifest.json written last.\n`,
  )
}

export async function restoreCommand(options: { from: string }): Promise<void> {
  const config = loadConfig()
  const summary = await refusalsAsCliErrors(() =>
    restoreBackup(config, resolve(options.from), progress('restore')),
  )
  const roles = new Set(summary.manifest.files.map((f) => f.role))
  if (config.paraphSecret === undefined && !roles.has('secret')) {
    progress('restore')(
      'warning: the backup holds no paraph-secret and PARAPH_SECRET is not set: set it to the value used when the backup was made, or links, cursors and sessions made before stop working',
    )
  }
  if (config.signingCertP12 === undefined && !roles.has('sealing_identity')) {
    progress('restore')(
      'warning: the backup holds no sealing identity and SIGNING_CERT_P12 is not set: set it as before, or new final PDFs are sealed by a new self-signed certificate',
    )
  }
  process.stdout.write(
    `Restored ${summary.files} files (${megabytes(summary.bytes)}) from the backup made ${summary.manifest.created_at} into ${config.dataDir}; start paraph serve on it.\n`,
  )
}
