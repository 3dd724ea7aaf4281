import assert from 'node:assert/strict'
import { it } from 'node:test'
import pg from 'pg'
import { jobCatalogue } from '../src/job-catalogue.ts'
import { runOneJob } from '../src/jobs/worker.ts'
import { post } from './documents.ts'
import { a4 } from './fixtures/pdfs.ts'
import { startMailApp } from './mail.ts'

it('times', async () => {
  const m = await startMailApp({})
  const roles = Array.from({ length: 50 }, (_, i) => `r${i}`)
  const pdf = Buffer.from(await a4()).toString('base64')
  for (let b = 0; b < 4; b++) {
    const res = await post(m.t, m.key, '/v1/submissions/from_pdf', {
      signing_order: 'random',
      reminders: { first_after_hours: 1, every_hours: 720, max_count: 1 },
      documents: [
        {
          name: 'C',
          pdf_base64: pdf,
          fields: roles.map((role, i) => ({
            name: `S${i}`,
            role,
            type: 'signature',
            areas: [
              { page: 1, x: 0.05 + (i % 5) * 0.19, y: 0.04 + Math.floor(i / 5) * 0.095, w: 0.15, h: 0.04 },
            ],
          })),
        },
      ],
      submitters: roles.map((role, i) => ({ role, email: `s${b}-${i}@example.eu` })),
    })
    assert.equal(res.statusCode, 201, res.body)
  }
  await m.work()
  m.t.clock.set(new Date(m.t.clock.now().getTime() + 2 * 3600_000))
  const stats = new Map<string, { n: number; ms: number }>()
  const orig = pg.Client.prototype.query as any
  ;(pg.Client.prototype as any).query = function (...args: any[]) {
    const text = String(typeof args[0] === 'string' ? args[0] : args[0]?.text)
      .replace(/\s+/g, ' ')
      .slice(0, 90)
    const t0 = performance.now()
    const r = orig.apply(this, args)
    if (r && typeof r.then === 'function') {
      r.then(
        () => {
          const s = stats.get(text) ?? { n: 0, ms: 0 }
          s.n++
          s.ms += performance.now() - t0
          stats.set(text, s)
        },
        () => {},
      )
    }
    return r
  }
  const ctx = { ...m.t.deps, catalogue: jobCatalogue(m.t.deps) } as any
  const started = performance.now()
  let n = 0
  while (await runOneJob(ctx)) n++
  const total = performance.now() - started
  ;(pg.Client.prototype as any).query = orig
  const rows = [...stats].sort((a, b) => b[1].ms - a[1].ms)
  const sum = rows.reduce((a, [, s]) => a + s.ms, 0)
  console.log(`jobs ${n} total ${total.toFixed(0)} ms; in queries ${sum.toFixed(0)} ms`)
  for (const [k, s] of rows.slice(0, 25))
    console.log(
      `${s.ms.toFixed(0).padStart(6)} ms ${String(s.n).padStart(5)}× ${(s.ms / s.n).toFixed(2)} ${k}`,
    )
  await m.close()
})
