import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { describe, it } from 'node:test'
import { runLimited, withMemoryLimit } from './run-limited.ts'

const MiB = 1024 * 1024
const limits = { timeoutMs: 10_000, memoryBytes: 256 * MiB, maxStdoutBytes: MiB }

describe('withMemoryLimit', () => {
  // `ulimit -v` prints the address-space limit the child actually got, in KiB.
  const limitSeenBy = ([file, args]: [string, string[]]) =>
    execFileSync(file, args, { encoding: 'utf8' }).trim()

  it('caps the address space with prlimit', {
    skip: !withMemoryLimit('x', [], 1)[0].endsWith('prlimit'),
  }, () => {
    assert.equal(limitSeenBy(withMemoryLimit('sh', ['-c', 'ulimit -v'], 64 * MiB)), '65536')
  })

  it('caps the address space with ulimit -v where prlimit is missing', () => {
    assert.equal(limitSeenBy(withMemoryLimit('sh', ['-c', 'ulimit -v'], 64 * MiB, null)), '65536')
  })

  it('passes arguments through unquoted and unsplit by the shell', () => {
    const command = withMemoryLimit('printf', ['%s|', 'a b', '$HOME', '"; rm -rf x'], 64 * MiB, null)
    assert.equal(limitSeenBy(command), 'a b|$HOME|"; rm -rf x|')
  })
})

describe('runLimited', () => {
  it('returns stdout, stderr and the exit code', async () => {
    const run = await runLimited('sh', ['-c', 'echo out; echo err >&2; exit 3'], limits)
    assert.equal(run.stdout, 'out\n')
    assert.match(run.stderr, /^err\n/)
    assert.equal(run.code, 3)
    assert.equal(run.timedOut, false)
  })

  it('kills a child still running at the timeout', async () => {
    const run = await runLimited('tail', ['-f', '/dev/null'], { ...limits, timeoutMs: 50 })
    assert.equal(run.timedOut, true)
    assert.equal(run.signal, 'SIGKILL')
  })

  it('kills a child whose stdout passes the cap', async () => {
    const run = await runLimited('cat', ['/dev/zero'], { ...limits, maxStdoutBytes: 64 * 1024 })
    assert.equal(run.stdoutTooLarge, true)
    assert.equal(run.signal, 'SIGKILL')
    assert.ok(run.stdout.length <= 64 * 1024)
  })

  it('keeps the first and last lines of a stderr flood, not all of it', async () => {
    const script = 'echo first >&2; yes middle | head -n 200000 >&2; echo last >&2'
    const run = await runLimited('sh', ['-c', script], limits)
    assert.equal(run.code, 0)
    assert.match(run.stderr, /^first\n/)
    assert.match(run.stderr, /last\n$/)
    assert.ok(run.stderr.length <= 17 * 1024)
  })

  it('stops a child that allocates past the memory limit, not one that stays under it', async () => {
    // The shell reads 50 MB into a variable: fine under 512 MiB, a failed allocation under 32 MiB.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, not a template
    const script = 'x=$(head -c 50000000 /dev/zero | tr "\\0" a); echo ${#x}'
    const under = await runLimited('sh', ['-c', script], { ...limits, memoryBytes: 512 * MiB })
    assert.equal(under.stdout, '50000000\n')
    const over = await runLimited('sh', ['-c', script], { ...limits, memoryBytes: 32 * MiB })
    assert.notEqual(over.stdout, '50000000\n')
  })

  it('reports a command that cannot be started as exit code 127', async () => {
    const run = await runLimited('paraph-no-such-command', [], limits)
    assert.equal(run.code, 127)
  })
})
