// Chromium as a process for the renderer: launched with the flags docs/security.md#chromium gives,
// its process id read from Chromium itself, and killed with its whole process group (playwright
// starts the browser detached, so renderers, GPU and network helpers share the browser's group).
import type { Browser } from 'playwright-core'

/** What the renderer logs: pino's logger fits. */
export interface RenderLogger {
  debug(object: object, message: string): void
  warn(object: object, message: string): void
}

export interface Running {
  browser: Browser
  /** The browser's process id, also its process group's. */
  pid: number | undefined
  /** Whether Chromium's own sandbox confines its renderers. */
  sandboxed: boolean
}

/** CHROMIUM_SANDBOX: where it can run, always (or fail), or never. */
export type SandboxMode = 'auto' | 'on' | 'off'

/** Chromium could not start: a server fault, told apart from failures while rendering. */
export class LaunchError extends Error {}

const LAUNCH_TIMEOUT_MS = 30_000

// docs/security.md#chromium: scripts off for every frame, no proxy that answers, no name that
// resolves; the rest trims what a headless print server never needs.
const CHROMIUM_ARGS = [
  '--blink-settings=scriptEnabled=false',
  '--proxy-server=127.0.0.1:9',
  '--host-resolver-rules=MAP * ~NOTFOUND',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--no-first-run',
  '--disable-extensions',
  '--disable-background-networking',
  '--disable-sync',
  '--mute-audio',
]

/**
 * Chromium's own sandbox (seccomp-bpf plus namespaces) confines each renderer beneath the renderer's
 * rules (print-page.ts). It cannot run as root, nor where user namespaces are refused, as by
 * Docker's and containerd's default seccomp profiles (seen in deploy/proof). `auto` tries it unless
 * root and falls back, saying so once per executable; `on` fails rather than run without it; `off`
 * never tries (a container whose runtime refuses it: no failed start first).
 */
const sandboxRefused = new Set<string>()

export async function launchChromium(
  executablePath: string,
  logger: RenderLogger,
  mode: SandboxMode = 'auto',
): Promise<Running> {
  const root = process.getuid?.() === 0
  const tryIt = mode === 'on' || (mode === 'auto' && !root && !sandboxRefused.has(executablePath))
  if (tryIt) {
    try {
      return await launch(executablePath, true)
    } catch (error) {
      if (mode === 'on') {
        logger.warn(
          { err: error, chromium_path: executablePath },
          `Chromium could not start with its sandbox, which CHROMIUM_SANDBOX=on requires${root ? ' (it never runs as root)' : ''}: from_html and from_docx fail until it can, or CHROMIUM_SANDBOX is auto or off`,
        )
        throw new LaunchError('Chromium could not start with its sandbox', { cause: error })
      }
      sandboxRefused.add(executablePath)
      logger.warn(
        { err: error, chromium_path: executablePath },
        'Chromium could not start with its sandbox here (user namespaces refused?): it runs without it; set CHROMIUM_SANDBOX=off to skip the attempt, or on to require it',
      )
    }
  }
  try {
    return await launch(executablePath, false)
  } catch (error) {
    logger.warn(
      { err: error, chromium_path: executablePath },
      'Chromium could not start: from_html and from_docx fail until CHROMIUM_PATH names a working Chromium',
    )
    throw new LaunchError('Chromium could not start', { cause: error })
  }
}

async function launch(executablePath: string, sandboxed: boolean): Promise<Running> {
  // Loaded on the first launch: playwright-core takes ~0.5 s of CPU to import, which every process
  // that never renders HTML (a worker, each test file that builds the app) would pay for nothing.
  const { chromium } = await import('playwright-core')
  const browser = await chromium.launch({
    executablePath,
    // Without the sandbox, the flag explicitly too: should playwright's default change, root still starts.
    args: sandboxed ? CHROMIUM_ARGS : [...CHROMIUM_ARGS, '--no-sandbox'],
    chromiumSandbox: sandboxed,
    timeout: LAUNCH_TIMEOUT_MS,
    // Paraph's own shutdown closes the browser; playwright's handlers would exit the process.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  })
  return { browser, pid: await processId(browser), sandboxed }
}

/** The browser process's id, asked of Chromium itself (playwright's launch() does not expose it). */
async function processId(browser: Browser): Promise<number | undefined> {
  try {
    const session = await browser.newBrowserCDPSession()
    const info = (await session.send('SystemInfo.getProcessInfo')) as {
      processInfo: Array<{ type: string; id: number }>
    }
    await session.detach()
    return info.processInfo.find((p) => p.type === 'browser')?.id
  } catch {
    return undefined
  }
}

/** Kills the browser and every process of its group (renderers, GPU and network helpers). */
export function killGroup(running: Running): void {
  if (running.pid === undefined) {
    running.browser.close().catch(() => {})
    return
  }
  try {
    process.kill(-running.pid, 'SIGKILL')
  } catch {
    // ESRCH: the group is already gone. Never the bare pid: it may have been reused since.
  }
}

/** Whether `promise` settled within `ms` (a rejection counts as settled). */
export async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms)
  })
  const settled = promise.then(
    () => true,
    () => true,
  )
  try {
    return await Promise.race([settled, late])
  } finally {
    clearTimeout(timer)
  }
}
