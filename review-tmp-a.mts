import { markTags } from './src/render/html-tags.ts'
const P = 'https://fields.paraph.invalid/x/'
function t(label: string, html: string, lines = true) {
  const t0 = performance.now()
  try { const r = markTags(html, P, { path: 'html', lines }); console.log(label, 'ok tags', r.tags.length) }
  catch (e: any) { console.log(label, e.constructor.name, String(e.message).slice(0, 120)) }
  console.log(label, (performance.now() - t0).toFixed(0), 'ms')
}
const n = Number(process.argv[2] ?? 20000)
const which = process.argv[3]
if (!which || which==='1') t('one text node, many tags', '<p>' + '{{a}}'.repeat(n) + '</p>')
if (!which || which==='2') t('many <b> nodes (no lines)', '<p>' + '<b>{{a}}</b>'.repeat(n) + '</p>', false)
if (!which || which==='3') t('newlines then 500 tags', '<p>' + '\n'.repeat(n*100) + '{{a}}'.repeat(500) + '</p>')
if (!which || which==='4') t('many nodes then 500 tags', '<p>' + 'x<b></b>'.repeat(n*20) + '{{a}}'.repeat(500) + '</p>', false)
