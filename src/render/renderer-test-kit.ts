// What the renderer's test files share: a renderer on Debian's Chromium closed after the test, a
// recording logger, field markers as the from_html route writes them, and the processes of a
// browser's group read from /proc (to prove none outlives close()).
import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { after } from 'node:test'
import { ChromiumRenderer, type RendererOptions, type RenderLogger } from './chromium-renderer.ts'

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export interface LogEntry {
  level: 'debug' | 'warn'
  object: Record<string, unknown>
  message: string
}

export function recordingLogger(): RenderLogger & { entries: LogEntry[] } {
  const entries: LogEntry[] = []
  return {
    entries,
    debug: (object, message) => entries.push({ level: 'debug', object: object as never, message }),
    warn: (object, message) => entries.push({ level: 'warn', object: object as never, message }),
  }
}

/** A renderer closed when the enclosing suite (or file) ends. */
export function testRenderer(options: Partial<RendererOptions> = {}): ChromiumRenderer {
  const renderer = new ChromiumRenderer({
    executablePath: CHROMIUM_PATH,
    logger: recordingLogger(),
    ...options,
  })
  after(() => renderer.close())
  return renderer
}

/** A marker prefix with a fresh nonce, as the from_html route makes one per render. */
export function markPrefix(): string {
  return `https://fields.paraph.invalid/${randomBytes(12).toString('hex')}/`
}

/** An empty marker link; `style` places it (the route's markers are inline-block). */
export function marker(prefix: string, index: number, style: string): string {
  return `<a href="${prefix}${index}" style="display:inline-block;${style}"></a>`
}

/** Live (not zombie) processes whose process group is `pgid`. */
export function groupMembers(pgid: number): number[] {
  const members: number[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    let stat: string
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'latin1')
    } catch {
      continue // exited while listing
    }
    // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (Number(pgrp) === pgid && state !== 'Z') members.push(Number(name))
  }
  return members
}

/** Waits for `condition`, re-checking on each turn of the event loop, failing after `ms`. */
export async function waitFor(condition: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = performance.now() + ms
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setImmediate(resolve))
  }
}
