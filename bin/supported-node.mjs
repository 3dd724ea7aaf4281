#!/usr/bin/env node
// Paraph runs on the Node.js LTS lines 22 and 24. A machine whose own Node.js is older (20 reached
// its end of life in April 2026, and better-sqlite3 13 needs 22) gets Node.js 22 from the npm
// registry in .tools/node, put there by scripts/install.sh; this module reruns a command under it.
//   node bin/supported-node.mjs ARGS…   runs `node ARGS…` on a supported Node.js (npm test, bench)
//   runOnSupportedNode(args)            for bin/paraph.mjs: returns at once on a supported Node.js
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { constants } from 'node:os'
import { fileURLToPath } from 'node:url'

const MIN_MAJOR = 22
const toolsNode = fileURLToPath(new URL('../.tools/node/bin/node', import.meta.url))
const supported = Number(process.versions.node.split('.')[0]) >= MIN_MAJOR

/** Runs `node args…` and ends this process with its status; signals are passed on. */
function rerun(node, args) {
  const child = spawn(node, args, { stdio: 'inherit' })
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal))
  return new Promise(() => {
    child.on('exit', (code, signal) => process.exit(signal ? 128 + constants.signals[signal] : (code ?? 1)))
  })
}

/** Returns when this Node.js can run Paraph; otherwise runs `args` under .tools/node and exits. */
export async function runOnSupportedNode(args) {
  if (supported) return
  if (!existsSync(toolsNode)) {
    console.error(
      `Paraph needs Node.js 22 or 24; this is ${process.version}. Run scripts/install.sh (it puts Node.js 22 into .tools/node when the machine's is older) or install Node.js 22 or 24.`,
    )
    process.exit(1)
  }
  await rerun(toolsNode, args)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2)
  if (supported) await rerun(process.execPath, args)
  await runOnSupportedNode(args)
}
