// manifest.json of a backup: written last, so a folder without it is a backup
// that did not finish. It lists every file with its size and SHA-256; restore checks them all
// before writing anything. It detects damage and truncation, not a deliberate forgery (it is not
// signed: whoever can rewrite the files can rewrite it too).
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type Static, Type } from 'typebox'
import { Value } from 'typebox/value'
import { assertBlobKey } from '../storage/blob-store.ts'
import { BackupError } from './data-layout.ts'

export const MANIFEST_FILE = 'manifest.json'
export const MANIFEST_VERSION = 1
/** The database copy's name in a backup; blobs lie under `blobs/` with their keys as paths. */
export const DATABASE_FILE = 'paraph.db'
export const BLOBS_FOLDER = 'blobs'

export const BackupFile = Type.Object({
  path: Type.String(),
  role: Type.Union([
    Type.Literal('database'),
    Type.Literal('secret'),
    Type.Literal('sealing_identity'),
    Type.Literal('blob'),
  ]),
  size: Type.Integer({ minimum: 0 }),
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
})
export type BackupFile = Static<typeof BackupFile>

export const Manifest = Type.Object({
  format: Type.Literal('paraph-backup'),
  version: Type.Integer(),
  /** When the backup began; the database copy is the state as of `database_copied_at`. */
  created_at: Type.String(),
  database_copied_at: Type.String(),
  files: Type.Array(BackupFile),
})
export type Manifest = Static<typeof Manifest>

/** Refuses a path a manifest could use to write outside the restored folders. */
function assertSafePath(file: BackupFile): void {
  const fixed: Record<string, string> = {
    database: DATABASE_FILE,
    secret: 'paraph-secret',
    sealing_identity: 'paraph-seal.pem',
  }
  if (file.role !== 'blob') {
    if (file.path !== fixed[file.role])
      throw new BackupError(`manifest.json: ${file.role} must be ${fixed[file.role]}`)
    return
  }
  const key = file.path.startsWith(`${BLOBS_FOLDER}/`) ? file.path.slice(BLOBS_FOLDER.length + 1) : ''
  try {
    assertBlobKey(key)
  } catch {
    throw new BackupError(`manifest.json: ${JSON.stringify(file.path)} is not a blob path`)
  }
}

/** The manifest of the backup in `dir`, checked for shape; a BackupError when missing or malformed. */
export async function readManifest(dir: string): Promise<Manifest> {
  let text: string
  try {
    text = await readFile(join(dir, MANIFEST_FILE), 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    throw new BackupError(
      `${dir} has no ${MANIFEST_FILE}: not a Paraph backup, or one that did not finish (the manifest is written last)`,
    )
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw new BackupError(`${join(dir, MANIFEST_FILE)} is not valid JSON`)
  }
  if (!Value.Check(Manifest, parsed)) {
    const first = [...Value.Errors(Manifest, parsed)][0]
    throw new BackupError(
      `${join(dir, MANIFEST_FILE)} is not a Paraph backup manifest (${first?.instancePath || '/'} ${first?.message ?? ''})`.trim(),
    )
  }
  if (parsed.version !== MANIFEST_VERSION) {
    throw new BackupError(
      `${join(dir, MANIFEST_FILE)} is version ${parsed.version}; this Paraph reads version ${MANIFEST_VERSION}`,
    )
  }
  const databases = parsed.files.filter((f) => f.role === 'database').length
  if (databases !== 1) throw new BackupError(`manifest.json lists ${databases} databases, not 1`)
  const seen = new Set<string>()
  for (const file of parsed.files) {
    assertSafePath(file)
    if (seen.has(file.path)) throw new BackupError(`manifest.json lists ${file.path} twice`)
    seen.add(file.path)
  }
  return parsed
}
