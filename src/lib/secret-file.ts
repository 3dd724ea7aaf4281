import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { randomBase62 } from './ids.ts'
import { makePrivateDir, makePrivateFile, PRIVATE_FILE_MODE } from './private-files.ts'

/**
 * docs/operations.md#configuration: without PARAPH_SECRET, a master secret is generated once and
 * kept in the data directory. The exclusive create ('wx') makes two processes starting together
 * agree on one secret.
 */
export async function loadOrCreateSecret(dataDir: string): Promise<{ secret: string; created: boolean }> {
  const path = join(dataDir, 'paraph-secret')
  await makePrivateDir(dataDir)
  try {
    await writeFile(path, `${randomBase62(64)}\n`, { flag: 'wx', mode: PRIVATE_FILE_MODE })
    await makePrivateFile(path)
    return { secret: (await readFile(path, 'utf8')).trim(), created: true }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    return { secret: (await readFile(path, 'utf8')).trim(), created: false }
  }
}
