import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it, mock } from 'node:test'
import pino from 'pino'
import sonicBoom from 'sonic-boom'
import { BatchedLines, type LineSink } from './log-stream.ts'

const { SonicBoom } = sonicBoom

/** Records what reaches it; the real sink (sonic-boom on a file, on a pipe) is exercised below. */
class RecordingSink implements LineSink {
  writes: string[] = []
  syncFlushes = 0
  write(text: string): void {
    this.writes.push(text)
  }
  flushSync(): void {
    this.syncFlushes++
  }
}

describe('batched log lines', () => {
  it('holds lines until a batch is full, then hands them over as one write', () => {
    const sink = new RecordingSink()
    const lines = new BatchedLines(sink, { batchChars: 30, flushMs: 0 })
    lines.write('{"n":1}\n')
    lines.write('{"n":2}\n')
    lines.write('{"n":3}\n')
    assert.deepEqual(sink.writes, [])
    lines.write('{"n":4}\n')
    assert.deepEqual(sink.writes, ['{"n":1}\n{"n":2}\n{"n":3}\n{"n":4}\n'])
    lines.write('{"n":5}\n')
    assert.equal(sink.writes.length, 1)
    lines.flush()
    assert.deepEqual(sink.writes.at(-1), '{"n":5}\n')
    lines.flush()
    assert.equal(sink.writes.length, 2, 'an empty flush writes nothing')
  })

  it('writes a lone line within the flush interval', () => {
    mock.timers.enable({ apis: ['setInterval'] })
    try {
      const sink = new RecordingSink()
      const lines = new BatchedLines(sink, { flushMs: 200 })
      lines.write('{"msg":"alone"}\n')
      mock.timers.tick(199)
      assert.deepEqual(sink.writes, [])
      mock.timers.tick(1)
      assert.deepEqual(sink.writes, ['{"msg":"alone"}\n'])
      mock.timers.tick(1000)
      assert.equal(sink.writes.length, 1, 'idle ticks write nothing')
      lines.close()
    } finally {
      mock.timers.reset()
    }
  })

  it('flushSync and close write what is pending before returning', () => {
    const sink = new RecordingSink()
    const lines = new BatchedLines(sink, { flushMs: 0 })
    lines.write('x\n')
    lines.flushSync()
    assert.deepEqual(sink.writes, ['x\n'])
    assert.equal(sink.syncFlushes, 1)
    lines.write('y\n')
    lines.close()
    assert.deepEqual(sink.writes, ['x\n', 'y\n'])
    assert.equal(sink.syncFlushes, 2)
    lines.flushSync()
    assert.equal(sink.writes.length, 2, 'nothing pending, nothing written')
  })

  it('carries a pino logger’s lines, in order and whole, to a real file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'paraph-log-'))
    try {
      const file = join(dir, 'out.log')
      const boom = new SonicBoom({ dest: file, sync: true, minLength: 0 })
      const lines = new BatchedLines(boom, { batchChars: 1000, flushMs: 0 })
      const logger = pino({ base: null }, lines)
      for (let i = 0; i < 500; i++) logger.info({ i, text: 'é'.repeat(i % 7) }, 'line')
      lines.close()
      const written = readFileSync(file, 'utf8').trimEnd().split('\n')
      assert.equal(written.length, 500)
      written.forEach((text, i) => {
        const entry = JSON.parse(text)
        assert.equal(entry.i, i)
        assert.equal(entry.text, 'é'.repeat(i % 7))
      })
      boom.destroy()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('batched standard output', () => {
  const child = (exit: string) =>
    spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `import { batchedStdout } from ${JSON.stringify(new URL('./log-stream.ts', import.meta.url).href)}
         const lines = batchedStdout()
         for (let i = 0; i < 5000; i++) lines.write(JSON.stringify({ i }) + '\\n')
         ${exit}`,
      ],
      { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    )

  for (const [how, exit] of [
    ['when the process ends by itself', ''],
    [
      'when the process calls process.exit',
      'lines.write(JSON.stringify({ i: 5000 }) + "\\n"); process.exit(3)',
    ],
  ] as const) {
    it(`delivers every line, in order, to a pipe ${how}`, () => {
      const result = child(exit)
      assert.equal(result.stderr, '')
      assert.equal(result.status, exit ? 3 : 0)
      const numbers = result.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line).i)
      const expected = exit ? 5001 : 5000
      assert.equal(numbers.length, expected)
      assert.deepEqual(
        numbers,
        Array.from({ length: expected }, (_, i) => i),
      )
    })
  }
})
