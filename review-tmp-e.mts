import { markTags } from './src/render/html-tags.ts'
const P = 'https://fields.paraph.invalid/x/'
function t(label: string, html: string, lines = true) {
  const t0 = performance.now()
  try { const r = markTags(html, P, { path: 'html', lines }); console.log(label, html.length, 'ok tags', r.tags.length, 'out', r.html.length) }
  catch (e: any) { console.log(label, e.constructor.name, e.code ?? '', String(e.message).slice(0, 100)) }
  console.log('  ', (performance.now() - t0).toFixed(0), 'ms')
}
const M = 4 * 1024 * 1024 - 100
t('br flat', '<br>'.repeat(M / 4) + '{{a}}')
t('text 4MB', 'x'.repeat(M) + '{{a}}')
t('template', '<template>'.repeat(M / 10))
