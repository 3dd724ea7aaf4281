import { type Config, ConfigError, readConfig } from '../config.ts'
import { migrate } from '../db/database.ts'
import { createDeps, type Deps } from '../deps.ts'

/** Thrown by commands for a failure to report in one line (main.ts prints it and exits 1). */
export class CliError extends Error {}

export function loadConfig(): Readonly<Config> {
  try {
    return readConfig()
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message)
    throw error
  }
}

/** Deps for a command, with the schema migrated; closed after the command. */
export async function withDeps<T>(run: (deps: Deps) => Promise<T>): Promise<T> {
  const config = loadConfig()
  const deps = await createDeps(config)
  try {
    await migrate(deps.db, deps.engine)
    return await run(deps)
  } finally {
    await deps.close()
  }
}

export function warnAboutConfig(deps: Deps): void {
  if (deps.config.allowPrivateNetworkUrls) {
    deps.logger.warn(
      'ALLOW_PRIVATE_NETWORK_URLS=true: webhook and PDF URLs may reach loopback and private addresses, and http: PDF URLs are allowed. Development and tests only.',
    )
  }
  if (!deps.config.paraphSecret && deps.config.database.engine === 'postgres') {
    deps.logger.warn(
      `PARAPH_SECRET is not set: using the secret kept in ${deps.config.dataDir}. Set the same PARAPH_SECRET on every process when running several.`,
    )
  }
}
