// `paraph backup` while a real `paraph serve` creates and signs submissions, then
// `paraph restore` into a fresh DATA_DIR and a server started on it. Every submission completed
// before the backup began is there with its final PDF and audit trail byte for byte; every blob the
// copied database names is present; links signed before the backup still open (the kept secret came
// back). SQLite only: PostgreSQL deployments back up with their own tools (backup-refusals.test.ts).
import assert from 'node:assert/strict'
import { createHash, randomUUID } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fromPdfBody } from '../../test/documents.ts'
import { ENGINE } from '../../test/harness.ts'
import {
  type ParaphProcess,
  prepareDatabase,
  runParaph,
  startServe,
  until,
} from '../../test/paraph-process.ts'
import { SIGNATURE } from '../../test/signing.ts'
import { readManifest } from './manifest.ts'

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')
const sqliteOnly = ENGINE === 'sqlite' ? false : 'SQLite only: the embedded default'

interface Submission {
  id: string
  status: string
  submitters: Array<{ status: string }>
}

/** The API of one server, over real HTTP. */
function client(base: string, key: string) {
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${base}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...init.headers },
    })
  const json = async <T>(path: string): Promise<T> => {
    const res = await call(path)
    assert.equal(res.status, 200, `${path}: ${await res.clone().text()}`)
    return (await res.json()) as T
  }
  /** A signed file URL, fetched from this server whatever PUBLIC_URL it was made with. */
  const file = async (url: string) => {
    const res = await fetch(`${base}${new URL(url).pathname}`)
    assert.equal(res.status, 200, `${url}: ${res.status}`)
    return Buffer.from(await res.arrayBuffer())
  }
  return {
    json,
    file,
    async createAndSign(sign = true): Promise<string> {
      const res = await call('/v1/submissions/from_pdf', {
        method: 'POST',
        headers: { 'idempotency-key': randomUUID() },
        body: JSON.stringify(await fromPdfBody()),
      })
      assert.equal(res.status, 201, await res.clone().text())
      const created = (await res.json()) as { id: string; submitters: Array<{ signing_url: string }> }
      if (!sign) return created.id
      const slug = new URL(created.submitters[0]!.signing_url).pathname.split('/').pop()
      const signed = await fetch(`${base}/s/${slug}/sign`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ values: { Signature: SIGNATURE } }),
      })
      assert.equal(signed.status, 200, await signed.text())
      return created.id
    },
    completed: (id: string) =>
      until(`submission ${id} completed`, async () => {
        const submission = await json<Submission>(`/v1/submissions/${id}`)
        return submission.status === 'completed' ? submission : undefined
      }),
    /** The sealed final PDF and the audit trail as served, with the signed URL of the PDF. */
    async files(id: string) {
      const documents = await json<{ signed_pdf_url: string; original_pdf_url: string }>(
        `/v1/submissions/${id}/documents`,
      )
      const audit = await call(`/v1/submissions/${id}/audit_log`)
      assert.equal(audit.status, 200)
      return {
        signedPdfUrl: documents.signed_pdf_url,
        originalPdfUrl: documents.original_pdf_url,
        finalPdf: sha256(await file(documents.signed_pdf_url)),
        auditTrail: sha256(Buffer.from(await audit.arrayBuffer())),
      }
    },
    async all(): Promise<Submission[]> {
      const found: Submission[] = []
      for (let cursor = ''; ; ) {
        const page = await json<{ data: Submission[]; next_cursor: string | null }>(
          `/v1/submissions?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        )
        found.push(...page.data)
        if (!page.next_cursor) return found
        cursor = page.next_cursor
      }
    },
  }
}

/**
 * Two loops creating submissions until stopped, every fourth one signed (finalizing each would keep
 * both servers' workers busy long after the backup for no more coverage).
 */
class Load {
  made = 0
  #running = true
  readonly #loops: Promise<void>[]
  constructor(api: ReturnType<typeof client>) {
    this.#loops = [0, 1].map(async () => {
      while (this.#running) {
        await api.createAndSign(this.made % 4 === 0)
        this.made++
      }
    })
  }
  async stop(): Promise<void> {
    this.#running = false
    await Promise.all(this.#loops)
  }
}

describe('paraph backup under load, then paraph restore', { skip: sqliteOnly }, () => {
  let root: string
  const servers: ParaphProcess[] = []
  const envOf = (dataDir: string) => ({ DATA_DIR: dataDir, RATE_LIMIT_TEST: '100000', LOG_LEVEL: 'warn' })

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'paraph-backup-'))
  })
  after(async () => {
    await Promise.all(servers.map((server) => server.stop()))
    await rm(root, { recursive: true, force: true })
  })

  it('every submission completed before the backup comes back with identical final PDF and audit trail', async (t) => {
    // No PARAPH_SECRET: the secret kept in DATA_DIR is used, and must be in the backup.
    const original = envOf(join(root, 'data'))
    const key = await prepareDatabase(original)
    const first = await startServe([], original)
    servers.push(first.process)
    const api = client(first.base, key)

    const before: Record<string, Awaited<ReturnType<typeof api.files>>> = {}
    const ids = await Promise.all([1, 2, 3, 4].map(() => api.createAndSign()))
    for (const id of ids) {
      await api.completed(id)
      before[id] = await api.files(id)
    }

    const load = new Load(api)
    await until('the load has started', async () => (load.made >= 2 ? true : undefined))
    const madeBefore = load.made
    const backupStart = performance.now()
    const backup = await runParaph(['backup', '--to', join(root, 'backup')], original)
    const backupMs = Math.round(performance.now() - backupStart)
    const madeDuring = load.made - madeBefore
    await load.stop()
    assert.equal(backup.code, 0, backup.stderr)
    assert.match(backup.stdout, /^Backup complete in .*manifest\.json written last\.\n$/)
    assert.match(backup.stderr, /backup: database: .* copied as of /)
    assert.ok(madeDuring > 0, 'submissions were created and signed while the backup ran')
    const manifest = await readManifest(join(root, 'backup'))
    t.diagnostic(
      `backup took ${backupMs} ms (process included): ${madeDuring} submissions made meanwhile; ${manifest.files.length} files; ${load.made} made by the load in all`,
    )
    await first.process.stop()

    const restoredEnv = envOf(join(root, 'restored'))
    const restoreStart = performance.now()
    const restore = await runParaph(['restore', '--from', join(root, 'backup')], restoredEnv)
    t.diagnostic(`restore took ${Math.round(performance.now() - restoreStart)} ms (process included)`)
    assert.equal(restore.code, 0, restore.stderr)
    assert.match(restore.stdout, /^Restored \d+ files /)
    for (const name of ['paraph-secret', 'paraph-seal.pem']) {
      assert.ok(
        (await readFile(join(root, 'data', name))).equals(await readFile(join(root, 'restored', name))),
        `${name} restored as it was`,
      )
    }

    const second = await startServe([], restoredEnv)
    servers.push(second.process)
    const restored = client(second.base, key)
    for (const id of ids) {
      const now = await restored.files(id)
      assert.equal(now.finalPdf, before[id]!.finalPdf, `${id}: final PDF`)
      assert.equal(now.auditTrail, before[id]!.auditTrail, `${id}: audit trail`)
      // Signed by the first server with the kept secret: still valid on the restored one.
      assert.equal(sha256(await restored.file(before[id]!.signedPdfUrl)), before[id]!.finalPdf)
    }

    // The load's submissions as the snapshot had them: each names only blobs that were copied, and
    // those signed before the snapshot are finished by the restored server's worker.
    const checking = performance.now()
    const all = await restored.all()
    assert.ok(all.length >= ids.length + madeBefore, `${all.length} submissions restored`)
    for (const submission of all) {
      const { original_pdf_url } = await restored.json<{ original_pdf_url: string }>(
        `/v1/submissions/${submission.id}/documents`,
      )
      await restored.file(original_pdf_url)
      if (submission.submitters.every((s) => s.status === 'signed')) {
        await restored.completed(submission.id)
        await restored.files(submission.id)
      }
    }
    t.diagnostic(
      `${all.length} submissions restored, every original PDF served, every signed one completed (${Math.round(performance.now() - checking)} ms)`,
    )
  })
})
