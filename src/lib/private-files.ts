// What Paraph writes under DATA_DIR (the SQLite database, blobs, the generated secret and
// sealing certificate) is readable by its own user only: files 0600, folders 0700, whatever the
// umask. A mode given at creation is only an upper bound (the umask clears bits from it), so each
// new file and folder is also chmod-ed to the exact mode.
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs'
import { chmod, mkdir } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'

export const PRIVATE_FILE_MODE = 0o600
export const PRIVATE_DIR_MODE = 0o700

/** The folders from `first` (the topmost one mkdir created) down to `path`. */
function createdFolders(path: string, first: string | undefined): string[] {
  if (first === undefined) return []
  const folders: string[] = []
  for (let dir = resolve(path); ; dir = dirname(dir)) {
    folders.push(dir)
    if (dir === resolve(first) || dir === dirname(dir)) return folders
  }
}

/** `mkdir -p`, every folder it creates 0700; folders that existed are left as they are. */
export async function makePrivateDir(path: string): Promise<void> {
  const first = await mkdir(path, { recursive: true, mode: PRIVATE_DIR_MODE })
  await Promise.all(createdFolders(path, first).map((dir) => chmod(dir, PRIVATE_DIR_MODE)))
}

/** The same, synchronously (opening the SQLite database). */
export function makePrivateDirSync(path: string): void {
  const first = mkdirSync(path, { recursive: true, mode: PRIVATE_DIR_MODE })
  for (const dir of createdFolders(path, first)) chmodSync(dir, PRIVATE_DIR_MODE)
}

/** A file just written by Paraph, made 0600 exactly. */
export async function makePrivateFile(path: string): Promise<void> {
  await chmod(path, PRIVATE_FILE_MODE)
}

/**
 * Creates `path` empty and 0600 (with its folder, 0700) unless it exists: SQLite then gives its
 * -wal and -shm files the database's own mode.
 */
export function createPrivateFileSync(path: string): void {
  makePrivateDirSync(dirname(path))
  let fd: number
  try {
    fd = openSync(path, 'wx', PRIVATE_FILE_MODE)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return
    throw error
  }
  closeSync(fd)
  chmodSync(path, PRIVATE_FILE_MODE)
}
