// `npm run dev [-- COMMAND ARGS…]`: the edit-and-run loop. Builds dist/, runs `paraph COMMAND`
// (`serve` by default) from it, and on every change under src/ rebuilds and restarts the process —
// a rebuild takes about a second. Production and tests never go through this.
import { type ChildProcess, spawn } from 'node:child_process'
import { watch } from 'node:fs'
import { join } from 'node:path'
import { buildDist } from './build.ts'

const root = join(import.meta.dirname, '..')
const args = process.argv.slice(2)
const command = args.length ? args : ['serve']
let child: ChildProcess | undefined
let pending: NodeJS.Timeout | undefined
let building: Promise<void> = Promise.resolve()

function stopped(process: ChildProcess): Promise<void> {
  if (process.exitCode !== null || process.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    process.once('exit', () => resolve())
    process.kill('SIGTERM')
  })
}

async function rebuildAndRestart(reason: string): Promise<void> {
  try {
    const ms = await buildDist()
    console.error(`[dev] ${reason}: built in ${ms} ms, starting paraph ${command.join(' ')}`)
  } catch (error) {
    console.error(`[dev] ${reason}: the build failed, the running process is left as it was\n${error}`)
    return
  }
  if (child) await stopped(child)
  child = spawn(process.execPath, [join(root, 'bin/paraph.mjs'), ...command], { stdio: 'inherit' })
}

watch(join(root, 'src'), { recursive: true }, (_event, file) => {
  if (!file || file.endsWith('.test.ts')) return
  clearTimeout(pending)
  // Editors write a file in several steps: one rebuild after the last of them.
  pending = setTimeout(() => {
    building = building.then(() => rebuildAndRestart(`${file} changed`))
  }, 150)
})
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (child) await stopped(child)
    process.exit(0)
  })
}
building = rebuildAndRestart('start')
