#!/usr/bin/env node
// Paraph runs on the Node.js LTS lines 22 and 24. A machine whose own Node.js is older (20 reached
// its end of life in April 2026, and better-sqlite3 13 needs 22) gets Node.js 22 from the npm
// registry in .tools/node, put there by scripts/install.sh; this module reruns a command under it.
//   node bin/supported-node.mjs ARGS…   runs `node ARGS…` on a supported Node.js (npm test, bench)
//   runOnSupportedNode(args)            for bin/paraph.mjs: returns at once on a supported Node.js
//
// The rerun is a child, and Node.js cannot replace its process (no exec) nor ask the kernel to
// signal the child when its parent dies (no PR_SET_PDEATHSIG). So the launcher hands the child one
// more pipe, fd 3, named by PARAPH_LAUNCHER_FD, and never writes to it: the child watches it, and
// when the launcher is gone however it ended (SIGKILL by a supervisor, an operator or the OOM
// killer included) the kernel closes the launcher's end, the child reads end of file and stops as
// on SIGTERM (`paraph serve` drains and exits, releasing its port). docs/operations.md#nodejs-versions
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { Socket } from 'node:net'
import { constants } from 'node:os'
import { fileURLToPath } from 'node:url'

const MIN_MAJOR = 22
const toolsNode = fileURLToPath(new URL('../.tools/node/bin/node', import.meta.url))
const supported = Number(process.versions.node.split('.')[0]) >= MIN_MAJOR
/** The environment variable naming the child's end of the launcher's pipe. */
const LAUNCHER_FD = 'PARAPH_LAUNCHER_FD'

/** Runs `node args…` and ends this process with its status; signals are passed on. */
function rerun(node, args, watched) {
  const child = spawn(node, args, {
    stdio: ['inherit', 'inherit', 'inherit', ...(watched ? ['pipe'] : [])],
    env: watched ? { ...process.env, [LAUNCHER_FD]: '3' } : process.env,
  })
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal))
  return new Promise(() => {
    child.on('exit', (code, signal) => process.exit(signal ? 128 + constants.signals[signal] : (code ?? 1)))
  })
}

/**
 * In a child of the launcher: SIGTERM to this process once the launcher's pipe closes (the launcher
 * has exited or been killed). The watch keeps nothing alive, and the variable is not passed on.
 */
function watchLauncher() {
  const fd = Number(process.env[LAUNCHER_FD])
  delete process.env[LAUNCHER_FD]
  if (!Number.isInteger(fd) || fd < 3) return
  let pipe
  try {
    pipe = new Socket({ fd, readable: true, writable: false })
  } catch {
    return
  }
  let gone = false
  const launcherGone = () => {
    if (gone) return
    gone = true
    process.kill(process.pid, 'SIGTERM')
  }
  pipe.on('end', launcherGone)
  pipe.on('error', launcherGone)
  pipe.on('close', launcherGone)
  pipe.resume()
  pipe.unref()
}

/** The Node.js to rerun under, or the exit with what to do when there is none. */
function toolsNodeOrExit() {
  if (existsSync(toolsNode)) return toolsNode
  console.error(
    `Paraph needs Node.js 22 or 24; this is ${process.version}. Run scripts/install.sh (it puts Node.js 22 into .tools/node when the machine's is older) or install Node.js 22 or 24.`,
  )
  process.exit(1)
}

/**
 * For bin/paraph.mjs: returns when this Node.js can run Paraph (watching the launcher that started
 * it, if one did); otherwise runs `args` under .tools/node, as a child that ends with this process.
 */
export async function runOnSupportedNode(args) {
  if (supported) return watchLauncher()
  await rerun(toolsNodeOrExit(), args, true)
}

// Any other command (npm test, build, bench): it knows nothing of the pipe, so none is handed over.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2)
  await rerun(supported ? process.execPath : toolsNodeOrExit(), args, false)
}
