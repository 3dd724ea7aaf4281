// docs/operations.md#nodejs-versions: on a machine whose own Node.js is older than 22,
// `node bin/paraph.mjs` is a launcher that reruns Paraph under .tools/node in a child
// (bin/supported-node.mjs). Issue #33: a SIGKILL to the launcher (a supervisor, an operator, the OOM
// killer) left the server running, holding its port, with no parent. Now the child watches a pipe
// only the launcher holds open: the launcher gone, the child shuts down as on SIGTERM and its port
// is free, within a bounded wait. Needs an older Node.js (Debian's /usr/bin/node, 20 here) and
// .tools/node; elsewhere the test says why it cannot run.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { ParaphProcess, until } from './paraph-process.ts'

const OLD_NODE = process.env.PARAPH_TEST_OLD_NODE ?? '/usr/bin/node'
const TOOLS_NODE = join(import.meta.dirname, '../.tools/node/bin/node')

function majorOf(node: string): number {
  if (!existsSync(node)) return 0
  return Number(spawnSync(node, ['-p', 'process.versions.node.split(".")[0]']).stdout?.toString() ?? 0)
}

/** Why this machine cannot run the test, or false. */
function cannotRun(): string | false {
  const major = majorOf(OLD_NODE)
  if (major === 0 || major >= 22) return `needs a Node.js older than 22 at ${OLD_NODE} (PARAPH_TEST_OLD_NODE)`
  if (!existsSync(TOOLS_NODE))
    return 'needs .tools/node (scripts/install.sh on a machine with an older Node.js)'
  return false
}

/** State and parent of a process, or undefined once it is gone (a zombie counts as gone). */
function processInfo(pid: number): { state: string; ppid: number } | undefined {
  let stat: string
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'latin1')
  } catch {
    return undefined
  }
  // pid (comm) state ppid …; comm may hold spaces and parentheses.
  const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return state === 'Z' ? undefined : { state: state!, ppid: Number(ppid) }
}

function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((child) => processInfo(child)?.ppid === pid)
}

/** Whether this process can listen on the port (no one else holds it). */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer()
    probe.once('error', () => resolve(false))
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)))
  })
}

describe('the launcher of an older Node.js (bin/supported-node.mjs)', { skip: cannotRun() }, () => {
  const root = mkdtempSync(join(tmpdir(), 'paraph-launcher-'))
  const children: number[] = []
  after(() => {
    // A child the test could not see end is killed here, never left holding its port.
    for (const pid of children) if (processInfo(pid)) process.kill(pid, 'SIGKILL')
    rmSync(root, { recursive: true, force: true })
  })

  /** `paraph serve` started by the older Node.js, once it listens: the launcher, its child, the port. */
  async function startLaunched(name: string) {
    const env = {
      DATA_DIR: join(root, name),
      PORT: '0',
      LOG_LEVEL: 'info',
      HOME: root,
      // No Chromium: this test needs none, and it would only load the machine.
      CHROMIUM_PATH: join(root, 'no-chromium'),
    }
    const launcher = new ParaphProcess(['serve'], env, [], OLD_NODE)
    try {
      const [, port] = await launcher.waitFor(/Paraph listening on http:\/\/127\.0\.0\.1:(\d+)/)
      const [child] = childrenOf(launcher.child.pid!)
      assert.ok(child, 'the launcher runs Paraph in a child')
      children.push(child)
      assert.match(readFileSync(`/proc/${child}/cmdline`, 'latin1'), /\.tools\/node/)
      return { launcher, child, port: Number(port) }
    } catch (error) {
      await launcher.kill()
      throw error
    }
  }

  it('kill -9 of the launcher: its child shuts down as on SIGTERM and frees the port', async () => {
    const { launcher, child, port } = await startLaunched('killed')
    assert.equal(await portFree(port), false, 'the server holds its port')

    await launcher.kill()
    await until('the child to exit', async () => (processInfo(child) ? undefined : true), 30_000)
    await until('the port to be free', async () => ((await portFree(port)) ? true : undefined), 30_000)
    // Its last lines may still be in the pipe it shared with the launcher.
    const stopping = await until(
      'its shutdown line',
      async () => launcher.logLines(/^shutting down$/)[0],
      5_000,
    )
    assert.equal(stopping.signal, 'SIGTERM', 'a graceful shutdown, as on SIGTERM')
  })

  it('SIGTERM to the launcher: passed on, the child drains, both exit 0', async () => {
    const { launcher, child, port } = await startLaunched('stopped')
    assert.equal(await launcher.stop(), 0, launcher.output)
    assert.equal(processInfo(child), undefined)
    assert.equal(await portFree(port), true)
  })
})
