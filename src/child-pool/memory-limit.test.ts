import assert from 'node:assert/strict'
import { execFileSync, spawnSync } from 'node:child_process'
import { describe, it } from 'node:test'
import { nodeReservedBytes, reservedIn, withMemoryLimit } from './memory-limit.ts'

const MiB = 1024 * 1024

describe('withMemoryLimit', () => {
  // `ulimit -d` prints the data-segment limit the child actually got, in KiB.
  const limitSeenBy = ([file, args]: [string, string[]]) =>
    execFileSync(file, args, { encoding: 'utf8' }).trim()

  it('caps the data segment with prlimit', {
    skip: !withMemoryLimit('x', [], 1)[0].endsWith('prlimit'),
  }, () => {
    assert.equal(limitSeenBy(withMemoryLimit('sh', ['-c', 'ulimit -d'], 64 * MiB)), '65536')
  })

  it('caps the data segment with ulimit -d where prlimit is missing', () => {
    assert.equal(limitSeenBy(withMemoryLimit('sh', ['-c', 'ulimit -d'], 64 * MiB, null)), '65536')
  })

  it('passes arguments through unquoted and unsplit by the shell', () => {
    const command = withMemoryLimit('printf', ['%s|', 'a b', '$HOME', '"; rm -rf x'], 64 * MiB, null)
    assert.equal(limitSeenBy(command), 'a b|$HOME|"; rm -rf x|')
  })

  it('lets node allocate under the limit and refuses an allocation past it', () => {
    const script = 'Buffer.alloc(Number(process.argv[1])).fill(1); process.stdout.write("allocated")'
    const run = (bytes: number) => {
      const limit = 256 * MiB + nodeReservedBytes()
      const [file, args] = withMemoryLimit(process.execPath, ['-e', script, String(bytes)], limit)
      return spawnSync(file, args, { encoding: 'utf8' })
    }
    assert.equal(run(64 * MiB).stdout, 'allocated')
    const over = run(512 * MiB)
    assert.notEqual(over.stdout, 'allocated')
    assert.match(over.stderr, /allocation failed/i)
  })

  it('counts only private read-write-execute mappings as what node reserves at start', () => {
    const maps = [
      '00400000-00600000 r-xp 00000000 08:01 1 /usr/bin/node',
      '7f0000000000-7f001fe00000 rwxp 00000000 00:00 0 ',
      '7f1000000000-7f1000100000 rw-p 00000000 00:00 0 ',
      '7f2000000000-7f2000200000 rwxs 00000000 00:00 0 ',
    ].join('\n')
    assert.equal(reservedIn(maps), 0x1fe00000)
    assert.equal(reservedIn(''), 0)
  })
})
