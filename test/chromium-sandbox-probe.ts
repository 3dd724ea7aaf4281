// Run by src/render/chromium-sandbox.test.ts, as the user it chooses: launches Chromium as the
// renderer does with the CHROMIUM_SANDBOX mode given as argument, renders one page, and prints as
// JSON whether the launch says it is sandboxed, the seccomp mode of each renderer process of the
// browser's group (2: a seccomp-bpf filter, as Chromium's sandbox installs; 0: none), and the warnings.
import { readdirSync, readFileSync } from 'node:fs'
import { killGroup, launchChromium, type SandboxMode } from '../src/render/chromium-process.ts'

const mode = (process.argv[2] ?? 'auto') as SandboxMode
const warnings: string[] = []
const logger = { debug() {}, warn: (_: object, message: string) => void warnings.push(message) }

function report(what: object): void {
  process.stdout.write(`${JSON.stringify(what)}\n`)
}

/** [pid, process group, command line] of every process this user can read. */
function processes(): Array<[number, number, string]> {
  const found: Array<[number, number, string]> = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      // The group is the 5th field of stat, after the command in parentheses.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      const group = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2])
      found.push([Number(name), group, readFileSync(`/proc/${name}/cmdline`, 'utf8')])
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found
}

try {
  const running = await launchChromium(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', logger, mode)
  const page = await running.browser.newPage()
  await page.setContent('<p>sandboxed?</p>')
  const text = await page.textContent('p')
  const seccomp = processes()
    .filter(([, group, command]) => group === running.pid && command.includes('--type=renderer'))
    .map(([pid]) => Number(/^Seccomp:\s+(\d)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]))
  killGroup(running)
  report({ started: true, sandboxed: running.sandboxed, text, seccomp, warnings })
} catch (error) {
  report({ started: false, error: (error as Error).message, warnings })
}
