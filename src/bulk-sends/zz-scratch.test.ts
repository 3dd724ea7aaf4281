import { it } from 'node:test'
import { bulkRow, bulkTemplate } from '../../test/bulk.ts'
import { post } from '../../test/documents.ts'
import { startTestApp } from '../../test/harness.ts'

it('timing', async () => {
  const t = await startTestApp({ env: { RATE_LIMIT_TEST: '100000' } })
  const key = (await t.account()).testKey
  const tpl = await bulkTemplate(t, key)
  const rows = Array.from({ length: 10000 }, (_, i) => bulkRow(i))
  for (let i = 0; i < 3; i++) {
    const s = performance.now()
    const dry = await post(t, key, '/v1/bulk_sends', { template_id: tpl, dry_run: true, rows })
    console.log('dry', dry.statusCode, Math.round(performance.now() - s))
  }
  await t.close()
})
