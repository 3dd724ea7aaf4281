// docs/operations.md#building-and-the-read-only-install: the install is read-only at run time.
// `paraph serve` runs in a mount namespace where the whole filesystem is mounted read-only but
// DATA_DIR and TMPDIR (each a fresh tmpfs) and /dev/shm, and takes a submission through its whole
// path there: an HTML document (Chromium, the tag finder child), a PDF document (the inspector
// child), the signing page with its built assets, the console's assets, a signature, the final PDF
// and audit trail (the finalizer child). Any write elsewhere fails with EROFS, fails the flow, and
// is looked for in what the process printed. Needs root (a mount namespace): CI runs as root;
// elsewhere the test says why it cannot run.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fetch } from 'undici'
import { base64 } from './documents.ts'
import { a4 } from './fixtures/pdfs.ts'
import { ParaphProcess, until } from './paraph-process.ts'
import { SIGNATURE } from './signing.ts'

/** The fields of the API's answers this test reads. */
interface Answer {
  id: string
  status: string
  submitters: Array<{ signing_url: string }>
  original_pdf_url: string
  signed_pdf_url: string
}

const canUnshare = process.getuid?.() === 0 && spawnSync('unshare', ['-m', 'true']).status === 0

describe('a read-only install runs a submission to completion', {
  skip: !canUnshare && 'needs root and unshare -m',
}, () => {
  const root = mkdtempSync(join(tmpdir(), 'paraph-ro-'))
  const dataDir = join(root, 'data')
  const tmp = join(root, 'tmp')
  let paraph: ParaphProcess
  let base: string
  let key: string

  before(async () => {
    // The mounts are made inside the namespace, so nothing outside it sees them.
    const script = [
      'set -e',
      `mkdir -p ${dataDir} ${tmp}`,
      'mount --make-rprivate /',
      'mount -o remount,bind,ro /',
      `mount -t tmpfs -o mode=0700 data ${dataDir}`,
      `mount -t tmpfs -o mode=1777 tmp ${tmp}`,
      'exec "$@"',
    ].join('\n')
    paraph = new ParaphProcess(
      ['serve'],
      { DATA_DIR: dataDir, TMPDIR: tmp, PORT: '0', LOG_LEVEL: 'info', HOME: root },
      ['unshare', '-m', 'sh', '-c', script, 'sh'],
    )
    const [, address] = await paraph.waitFor(/Paraph listening on (http:\/\/127\.0\.0\.1:\d+)/)
    base = address!
    key = (await paraph.waitFor(/test key {2}(sk_test_\w+)/))[1]!
  })

  after(async () => {
    await paraph?.stop()
    rmSync(root, { recursive: true, force: true })
  })

  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(base + path, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined
          ? {}
          : { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    return { status: res.status, json: (await res.json()) as Answer }
  }
  /** A path of this server for a URL it answered (PUBLIC_URL names port 0 under PORT=0). */
  const local = (url: string) => base + new URL(url).pathname + new URL(url).search

  it('checks its own premise: the checkout cannot be written from inside', () => {
    const probe = spawnSync('unshare', [
      '-m',
      'sh',
      '-c',
      'mount --make-rprivate / && mount -o remount,bind,ro / && touch "$0"',
      join(import.meta.dirname, 'ro-probe'),
    ])
    assert.notEqual(probe.status, 0)
    assert.match(String(probe.stderr), /Read-only file system/)
  })

  it('from HTML and PDF, signed on the page, completed with its final PDF and audit trail', async () => {
    try {
      await wholePath()
    } catch (error) {
      // What the server printed is the only evidence of a failure in CI: it goes with the failure.
      if (error instanceof Error)
        error.message += `\n--- paraph printed (tail) ---\n${paraph.output.slice(-6000)}`
      throw error
    }
  })

  async function wholePath(): Promise<void> {
    const created = await api('POST', '/v1/submissions/from_html', {
      name: 'Read-only agreement',
      html: '<h1>Agreement</h1><p>Agreed.</p><p>{{Signature;role=Client}}</p>',
      submitters: [{ role: 'Client', email: 'ro@example.com', name: 'Rea Only' }],
    })
    assert.equal(created.status, 201, JSON.stringify(created.json))
    const pdf = await api('POST', '/v1/submissions/from_pdf', {
      documents: [
        {
          name: 'One page',
          pdf_base64: base64(await a4()),
          fields: [{ name: 'Sig', role: 'signer', areas: [{ page: 1, x: 0.1, y: 0.8, w: 0.3, h: 0.05 }] }],
        },
      ],
      submitters: [{ role: 'signer', email: 'pdf@example.com' }],
    })
    assert.equal(pdf.status, 201, JSON.stringify(pdf.json))

    const signing = local(created.json.submitters[0]!.signing_url)
    const page = await fetch(signing)
    assert.equal(page.status, 200)
    const html = await page.text()
    for (const asset of html.matchAll(/(?:src|href)="(\/signing-page\/assets\/[^"]+)"/g)) {
      const res = await fetch(base + asset[1], { headers: { 'accept-encoding': 'br' } })
      assert.equal(res.status, 200, asset[1])
      assert.equal(res.headers.get('content-encoding'), 'br')
      assert.ok((await res.arrayBuffer()).byteLength > 100)
    }
    const consolePage = await fetch(`${base}/console/`)
    assert.equal(consolePage.status, 200)
    const consoleScript = /src="(\/console\/assets\/[^"]+\.js)"/.exec(await consolePage.text())?.[1]
    assert.ok(consoleScript)
    assert.equal((await fetch(base + consoleScript)).status, 200)

    const post = (action: string, body?: unknown) =>
      fetch(`${signing}/${action}`, {
        method: 'POST',
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
    assert.equal((await post('open')).status, 200)
    const signed = await post('sign', { values: { Signature: SIGNATURE } })
    assert.equal(signed.status, 200, await signed.text())

    const done = await until(
      'the submission completes',
      async () => {
        const got = await api('GET', `/v1/submissions/${created.json.id}`)
        return got.json.status === 'completed' ? got.json : undefined
      },
      120_000,
    )
    const documents = await api('GET', `/v1/submissions/${done.id}/documents`)
    assert.equal(documents.status, 200)
    for (const url of [documents.json.original_pdf_url, documents.json.signed_pdf_url]) {
      const file = Buffer.from(await (await fetch(local(url))).arrayBuffer())
      assert.equal(file.subarray(0, 5).toString(), '%PDF-')
    }
    const audit = await fetch(`${base}/v1/submissions/${done.id}/audit_log`, {
      headers: { authorization: `Bearer ${key}` },
    })
    assert.equal(audit.status, 200)
    assert.equal(
      Buffer.from(await audit.arrayBuffer())
        .subarray(0, 5)
        .toString(),
      '%PDF-',
    )

    assert.doesNotMatch(paraph.output, /EROFS|read-only file system/i)
  }
})
