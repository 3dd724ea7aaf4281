// The point in time of a backup: the SQLite database copied through its online backup API while
// Paraph keeps writing.
import BetterSqlite3 from 'better-sqlite3'

/** Pages per backup step: all of them, so the copy is made within one read transaction. */
const ALL_PAGES = 0x7fffffff

/**
 * Copies the database at `source` to the new file `target`. SQLite restarts a stepwise backup each
 * time another process writes between two steps, which under steady load may never end; copying
 * every page in a single step instead reads one snapshot (WAL mode: writers go on meanwhile) and
 * gives a copy as of one committed transaction.
 */
export async function snapshotSqlite(source: string, target: string): Promise<{ pages: number }> {
  const db = new BetterSqlite3(source, { fileMustExist: true })
  try {
    db.pragma('busy_timeout = 5000')
    const result = await db.backup(target, { progress: () => ALL_PAGES })
    return { pages: result.totalPages }
  } finally {
    db.close()
  }
}

/**
 * Makes a copy one self-contained file (rollback journal: no -wal or -shm beside it; the service
 * turns WAL on again when it opens the restored file) and runs `PRAGMA quick_check` on it: 'ok', or
 * the first problem SQLite reports.
 */
export function finishCopy(path: string): string {
  const db = new BetterSqlite3(path, { fileMustExist: true })
  try {
    db.pragma('journal_mode = DELETE')
    return String(db.pragma('quick_check', { simple: true }))
  } finally {
    db.close()
  }
}
