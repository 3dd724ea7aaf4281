import { markTags } from './src/render/html-tags.ts'
const P = 'https://fields.paraph.invalid/x/'
function t(label: string, html: string, lines = true) {
  const t0 = performance.now()
  try { const r = markTags(html, P, { path: 'html', lines }); console.log(label, 'ok tags', r.tags.length, 'out', r.html.length) }
  catch (e: any) { console.log(label, e.constructor.name, e.code ?? '', String(e.message).slice(0, 100)) }
  console.log('  ', (performance.now() - t0).toFixed(0), 'ms')
}
t('svg g', '<svg>' + '<g>'.repeat(200000))
t('template', '<template>'.repeat(200000))
t('table', '<table><tr><td>'.repeat(100000) + '{{a}}')
t('b nested', '<b>'.repeat(300000) + '{{a}}')
t('a nested', '<a>'.repeat(300000) + '{{a}}')
t('i/b misnest', '<b><i></b></i>'.repeat(200000) + '{{a}}')
t('nobr', '<nobr>'.repeat(300000) + '{{a}}')
t('select', '<select><option>{{a}}</option></select>')
t('font attr', Array.from({length: 3000}, (_, i) => `<font id=${i}>`).join('') + '{{a}}')
t('foster', '<table>' + '<b>x'.repeat(200000) + '{{a}}')
t('li', '<ul>' + '<li>'.repeat(200000) + '{{a}}')
