// Every statement the app sends to its database while `record` runs, with the parameters of its
// first run: the drivers' own entry points are wrapped (better-sqlite3's Statement, node-postgres's
// Client#query), so Kysely's queries and the direct reads of db/prepared.ts are both seen.
import Sqlite from 'better-sqlite3'
import pg from 'pg'

export interface CapturedStatement {
  sql: string
  parameters: unknown[]
}

type Method = (this: unknown, ...args: unknown[]) => unknown

const seen = new Map<string, CapturedStatement>()
let recording = false

function note(text: unknown, parameters: unknown): void {
  if (!recording || typeof text !== 'string' || seen.has(text)) return
  seen.set(text, { sql: text, parameters: Array.isArray(parameters) ? [...parameters] : [] })
}

function wrap(target: Record<string, unknown>, name: string, read: (self: unknown, args: unknown[]) => void) {
  const original = target[name] as Method
  target[name] = function (this: unknown, ...args: unknown[]) {
    read(this, args)
    return original.apply(this, args)
  }
}

let installed = false

function install(): void {
  if (installed) return
  installed = true
  const probe = new Sqlite(':memory:')
  const statement = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, unknown>
  probe.close()
  for (const name of ['all', 'get', 'run', 'iterate']) {
    wrap(statement, name, (self, args) => {
      const parameters = args.length === 1 && Array.isArray(args[0]) ? args[0] : args
      note((self as { source: string }).source, parameters)
    })
  }
  wrap(pg.Client.prototype as unknown as Record<string, unknown>, 'query', (_self, [config, values]) => {
    if (typeof config === 'string') note(config, values)
    else if (config && typeof config === 'object') {
      const { text, values: own } = config as { text?: string; values?: unknown[] }
      note(text, own ?? values)
    }
  })
}

/** The distinct statements run while `body` ran, in the order first seen. */
export async function record(body: () => Promise<void>): Promise<CapturedStatement[]> {
  install()
  seen.clear()
  recording = true
  try {
    await body()
  } finally {
    recording = false
  }
  return [...seen.values()]
}
