// CHROMIUM_SANDBOX: Chromium's own sandbox confines the renderers where it can run. The
// probe (test/chromium-sandbox-probe.ts) launches Chromium as the renderer does, renders a page and
// reads the seccomp mode of each renderer process from /proc: 2 is the seccomp-bpf filter the
// sandbox installs, 0 none. It runs as an unprivileged user, since the sandbox never runs as root:
// when this test runs as root (as CI does), as uid 1000 of a user namespace of its own, which maps
// it to this user (so the checkout stays readable whatever its folders' modes), as a rootless
// container runs its user. Where no user namespace can be made (the kernel refuses them to a
// chrooted process, as in deploy/proof/fresh-machine.sh), neither can the sandbox: the probe then
// runs as uid 65534 through setpriv, and `auto` must fall back with its warning.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { chmod, chown, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { CHROMIUM_PATH } from './renderer-test-kit.ts'

const PROBE = fileURLToPath(new URL('../../test/chromium-sandbox-probe.ts', import.meta.url))
const ROOT = process.getuid?.() === 0
/** Whether this process may make a user namespace: what Chromium's sandbox needs too. */
const NAMESPACES =
  spawnSync('unshare', ['--user', '--map-user=1000', '--map-group=1000', 'true']).status === 0
const NOBODY = 65534

interface Probe {
  started: boolean
  sandboxed?: boolean
  text?: string
  seccomp?: number[]
  error?: string
  warnings: string[]
}

describe('CHROMIUM_SANDBOX', () => {
  let home: string
  before(async () => {
    home = await mkdtemp(join(tmpdir(), 'paraph-sandbox-'))
    if (ROOT && !NAMESPACES) await chown(home, NOBODY, NOBODY)
  })
  after(() => rm(home, { recursive: true, force: true }))

  /** The probe's report, run as an unprivileged user (or as root) with this mode and Chromium. */
  const probe = (mode: string, as: 'user' | 'root' = 'user', chromium = CHROMIUM_PATH): Probe => {
    const command = [process.execPath, '--import', 'tsx', PROBE, mode]
    const asUser = ROOT && as === 'user'
    const drop = NAMESPACES
      ? ['unshare', '--user', '--map-user=1000', '--map-group=1000']
      : ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups']
    const [file, ...args] = asUser ? [...drop, ...command] : command
    const env = { PATH: process.env.PATH, HOME: home, TMPDIR: home, CHROMIUM_PATH: chromium }
    const run = spawnSync(file!, args, { encoding: 'utf8', env, timeout: 120_000 })
    assert.equal(run.status, 0, run.stderr)
    return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as Probe
  }

  it('auto, unprivileged: the sandbox on and every renderer under its seccomp filter (where namespaces can be made)', () => {
    const report = probe('auto')
    assert.equal(report.started, true, report.error)
    assert.equal(report.text, 'sandboxed?')
    assert.ok(report.seccomp!.length > 0, 'no renderer process found')
    if (!NAMESPACES) {
      // A real refusal: rendering goes on without it, after one warning.
      assert.equal(report.sandboxed, false)
      assert.match(report.warnings.join(), /without it; set CHROMIUM_SANDBOX=off/)
      return
    }
    assert.equal(report.sandboxed, true)
    assert.deepEqual(
      report.seccomp,
      report.seccomp!.map(() => 2),
    )
    assert.deepEqual(report.warnings, [])
  })

  it('off: never tried, and the renderers run unfiltered', () => {
    const report = probe('off')
    assert.equal(report.sandboxed, false)
    assert.ok(report.seccomp!.length > 0, 'no renderer process found')
    assert.deepEqual(
      report.seccomp,
      report.seccomp!.map(() => 0),
    )
  })

  it('auto where the sandbox cannot start: one warning naming CHROMIUM_SANDBOX, then rendering without it', async () => {
    // A stand-in for a runtime that refuses the sandbox's user namespaces (the default seccomp
    // profiles of Docker and containerd, seen in deploy/proof; nothing here can impose one): this
    // Chromium exits at once unless started with --no-sandbox, as the real one does there.
    const refusing = join(home, 'chromium-refusing-sandbox')
    await writeFile(
      refusing,
      `#!/bin/sh\ncase " $* " in *" --no-sandbox "*) exec ${CHROMIUM_PATH} "$@";; esac\necho "No usable sandbox!" >&2\nexit 1\n`,
    )
    await chmod(refusing, 0o755)
    const report = probe('auto', 'user', refusing)
    assert.equal(report.started, true, report.error)
    assert.equal(report.sandboxed, false)
    assert.equal(report.text, 'sandboxed?')
    assert.equal(report.warnings.length, 1)
    assert.match(report.warnings[0]!, /without it; set CHROMIUM_SANDBOX=off/)
    const required = probe('on', 'user', refusing)
    assert.equal(required.started, false)
    assert.match(required.warnings.join(), /CHROMIUM_SANDBOX=on requires/)
  })

  it('as root: auto runs without it (Chromium refuses it to root); on refuses to start, saying why', {
    skip: !ROOT && 'needs root: this user cannot start a process as root',
  }, () => {
    const auto = probe('auto', 'root')
    assert.deepEqual([auto.started, auto.sandboxed, auto.warnings], [true, false, []])
    const on = probe('on', 'root')
    assert.equal(on.started, false)
    assert.match(on.warnings.join(), /CHROMIUM_SANDBOX=on requires \(it never runs as root\)/)
  })
})
