// The PDF readers behind intake: large files, the pool of child processes, the bundled reader and a
// reader that cannot start. Split from inspect-pdf.test.ts, which keeps what is measured and refused.
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { brokenXrefPdf } from '../../../test/fixtures/hostile-pdfs.ts'
import {
  assertSizes,
  fileOf,
  heapBomb,
  MB,
  MiB,
  objectStreamBomb,
  refusedWith,
  removeTestFiles,
  run,
} from '../../../test/fixtures/inspect-helpers.ts'
import { brokenXref, certifiedPdf, encryptedPdf } from '../../../test/fixtures/pdf-features.ts'
import {
  a4,
  a4Landscape,
  bigPdf,
  hundredPages,
  legal,
  letter,
  rotatedPage,
} from '../../../test/fixtures/pdfs.ts'
import { nodeReservedBytes } from '../../child-pool/memory-limit.ts'
import { closePdfInspector, InvalidPdfError, inspectPdfBytes, inspectPdfFile } from './inspect-pdf.ts'

after(removeTestFiles)

describe('inspectPdfFile on large files', () => {
  it('inspects ten at once without the test process growing by 100 MB', async () => {
    const path = await fileOf(await bigPdf(40 * MB))
    const rssBefore = process.memoryUsage().rss
    const infos = await Promise.all(Array.from({ length: 10 }, () => inspectPdfFile(path)))
    const grown = process.memoryUsage().rss - rssBefore
    for (const info of infos) assertSizes(info.pages, [[595.28, 841.89]])
    assert.ok(grown < 100 * MB, `RSS grew by ${Math.round(grown / MB)} MB`)
  })

  it('reads a 50 MB file (the largest upload) under the default memory limit', async () => {
    const info = await inspectPdfFile(await fileOf(await bigPdf(50 * MB)))
    assertSizes(info.pages, [[595.28, 841.89]])
  })

  it('timeout when the reader runs past timeoutMs, and the next file is read', async () => {
    // ~0.3 GiB to inflate before the page tree: seconds of work.
    const path = await fileOf(objectStreamBomb(300))
    const options = { timeoutMs: 200, poolSize: 1 }
    await assert.rejects(inspectPdfFile(path, options), (error) => {
      refusedWith('timeout')(error)
      assert.equal((error as Error).message, 'the PDF took longer than 0.2 s to read; it may be damaged')
      return true
    })
    assertSizes((await inspectPdfBytes(await a4(), options)).pages, [[595.28, 841.89]])
  })

  it('reads a 50 MB file whose xref points past its end, rebuilding the xref', async () => {
    const info = await inspectPdfFile(await fileOf(await brokenXrefPdf(50 * MB)))
    assertSizes(info.pages, [[595.28, 841.89]])
    assert.equal(info.repaired, true)
  })
})

describe('the pool of readers', () => {
  it('queues calls beyond its size and answers each', async () => {
    const files = [a4, letter, legal, a4Landscape, () => rotatedPage(90), hundredPages]
    const infos = await Promise.all(
      files.map(async (build) => inspectPdfBytes(await build(), { poolSize: 1 })),
    )
    assert.deepEqual(
      infos.map((info) => info.pageCount),
      [1, 1, 1, 1, 1, 100],
    )
    assertSizes(
      infos.map((info) => info.pages[0]!),
      [
        [595.28, 841.89],
        [612, 792],
        [612, 1008],
        [841.89, 595.28],
        [841.89, 595.28],
        [595.28, 841.89],
      ],
    )
  })

  it('unreadable when a reader runs out of memory (memory limit), and the next file is read', async () => {
    // 256 MiB lets a reader start (tsx needs ~160 MiB) but not hold five million numbers as MuPDF
    // objects (~250 MB measured): MuPDF's allocation fails inside the child, which says so.
    const options = { memoryLimitBytes: 256 * MiB, poolSize: 1 }
    await assert.rejects(inspectPdfBytes(heapBomb(5_000_000), options), (error) => {
      refusedWith('unreadable')(error)
      assert.match((error as Error).message, /exhausted the memory allowed/)
      return true
    })
    assertSizes((await inspectPdfBytes(await a4(), options)).pages, [[595.28, 841.89]])
  })

  it('starts again after closePdfInspector()', async () => {
    await inspectPdfBytes(await a4())
    closePdfInspector()
    assertSizes((await inspectPdfBytes(await a4())).pages, [[595.28, 841.89]])
  })

  it('lets a process that inspected a PDF exit on its own, and its readers with it', {
    timeout: 60_000,
  }, async () => {
    const path = await fileOf(await a4())
    const script = `
      import { readFileSync } from 'node:fs'
      import { inspectPdfFile } from ${JSON.stringify(new URL('./inspect-pdf.ts', import.meta.url).href)}
      const info = await inspectPdfFile(${JSON.stringify(path)})
      const readers = readFileSync(\`/proc/\${process.pid}/task/\${process.pid}/children\`, 'utf8')
      process.stdout.write(JSON.stringify({ pageCount: info.pageCount, readers: readers.trim().split(' ') }))
    `
    const root = fileURLToPath(new URL('../../..', import.meta.url))
    // Resolves only once the script has exited: a reader keeping it alive would hang the test.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '--eval', script],
      { cwd: root },
    )
    const { pageCount, readers } = JSON.parse(stdout) as { pageCount: number; readers: string[] }
    assert.equal(pageCount, 1)
    assert.ok(readers.length > 0)
    // Orphaned, each reader sees its stdin end and exits.
    for (const pid of readers) await untilGone(pid, Date.now() + 10_000)
  })
})

/** Waits, with a deadline, for a process to be gone (or a zombie awaiting its new parent). */
async function untilGone(pid: string, deadline: number): Promise<void> {
  for (;;) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined)
    if (stat === undefined || / Z /.test(stat)) return
    assert.ok(Date.now() < deadline, `reader ${pid} still running`)
    // Linux offers no exit notification for a process that is not our child: poll /proc.
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

describe('the bundled reader (dist/pdf-inspector.mjs, as bin/paraph.mjs builds it)', () => {
  it('loads mupdf from node_modules, without pdf-lib, and answers like the sources', {
    timeout: 120_000,
  }, async () => {
    const root = fileURLToPath(new URL('../../..', import.meta.url))
    // Any command bundles every entry point into dist/ first.
    await run(process.execPath, [join(root, 'bin/paraph.mjs'), '--help'], { cwd: root })
    const bundle = join(root, 'dist/pdf-inspector.mjs')
    const source = await readFile(bundle, 'utf8')
    assert.match(source, /from "mupdf"/)
    assert.doesNotMatch(source, /pdf-lib/)
    const files = [
      await fileOf(await encryptedPdf({ userPassword: '' })),
      await fileOf(await encryptedPdf({ userPassword: 'user-secret' })),
      await fileOf(await certifiedPdf(1)),
      await fileOf(await brokenXref()),
    ]
    const input = files.map((path, id) => JSON.stringify({ id, path })).join('\n')
    // Under the server's limit: 512 MiB of data segment over what node reserves, as child-pool.ts
    // starts it from the build.
    const { stdout, stderr } = await runWithInput(
      'prlimit',
      [`--data=${512 * MiB + nodeReservedBytes()}`, process.execPath, bundle],
      `${input}\n`,
    )
    const [ready, ...answers] = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    assert.deepEqual(ready, { ready: true })
    assert.deepEqual(
      answers.map(({ id, ok, reason, encrypted, certification }) => ({
        id,
        ok,
        reason,
        encrypted,
        certification,
      })),
      [
        { id: 0, ok: true, reason: undefined, encrypted: true, certification: undefined },
        { id: 1, ok: false, reason: 'password', encrypted: undefined, certification: undefined },
        { id: 2, ok: true, reason: undefined, encrypted: false, certification: 1 },
        { id: 3, ok: true, reason: undefined, encrypted: false, certification: undefined },
      ],
    )
    // MuPDF's "warning: trying to repair broken xref" and the like stay out of the server's logs.
    assert.equal(stderr, '')
  })
})

/** Runs a command with `input` on its standard input, which it reads to the end. */
function runWithInput(
  command: string,
  args: string[],
  input: string,
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(command, args, { timeout: 60_000 }, (error, stdout, stderr) =>
      error ? reject(error) : resolve({ stdout, stderr }),
    )
    child.stdin!.end(input)
  })
}

describe('a server fault', () => {
  it('is a plain Error, not a refusal of the file, when the reader cannot start', async () => {
    // 8 MiB of data segment is too little for node to start: it aborts at once.
    const outcome = await inspectPdfBytes(await a4(), { memoryLimitBytes: 8 * 1024 * 1024 }).catch((e) => e)
    assert.ok(outcome instanceof Error && !(outcome instanceof InvalidPdfError), String(outcome))
    assert.match(outcome.message, /PDF inspector could not start|could not run/)
  })
})
