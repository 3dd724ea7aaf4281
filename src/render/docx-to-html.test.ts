import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import {
  contractDocx,
  deeplyNestedDocx,
  heavyDocx,
  LOGO_PNG,
  lyingDocx,
  malformedXmlDocx,
  minimalDocx,
  notWordZip,
  zipBombDocx,
} from '../../test/fixtures/docx.ts'
import { closeDocxConverter, decodeBase64Docx, docxToHtml } from './docx-to-html.ts'
import { RenderError, type RenderReason } from './render-error.ts'

const DATA_URL = 'data:application/vnd.openxmlformats-officedocument.wordprocessingml.document;base64,'

/** The HTML's text, as the tag finder reads it: elements removed, nothing else. */
const textOf = (html: string) => html.replace(/<[^>]*>/g, '')

async function rejects(run: Promise<unknown> | (() => unknown), reason: RenderReason, pattern: RegExp) {
  await assert.rejects(
    async () => (typeof run === 'function' ? run() : run),
    (error: unknown) => {
      assert.ok(error instanceof RenderError, String(error))
      assert.equal(error.reason, reason)
      assert.match(error.message, pattern)
      return true
    },
  )
}

const ns = [
  'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"',
  'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"',
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"',
  'xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"',
].join(' ')
const rels = (target: string, mode = '') =>
  Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="${target}"${mode}/></Relationships>`,
  )
const picture = (attribute: string) =>
  `<w:p><w:r><w:t>Logo:</w:t></w:r><w:r><w:drawing><wp:inline ${ns}><wp:docPr id="1" name="p"/><a:graphic><a:graphicData><pic:pic><pic:blipFill><a:blip ${attribute}="rId9"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`
const run = (text: string, props = '') =>
  `<w:r>${props && `<w:rPr>${props}</w:rPr>`}<w:t xml:space="preserve">${text}</w:t></w:r>`

after(closeDocxConverter)

describe('decodeBase64Docx', () => {
  it('decodes base64, line-wrapped base64 and the DOCX data URL alike', () => {
    const bytes = Buffer.from('PK\u0003\u0004 any bytes')
    const base64 = bytes.toString('base64')
    assert.deepEqual(decodeBase64Docx(base64), bytes)
    assert.deepEqual(decodeBase64Docx(base64.replace(/(.{8})/g, '$1\r\n')), bytes)
    assert.deepEqual(decodeBase64Docx(DATA_URL + base64), bytes)
  })

  it('422 invalid_docx for characters outside the alphabet, bad padding, base64url, another data URL, or nothing', async () => {
    for (const bad of [
      'UEsDBA*=',
      'UEsDBA=',
      'UEsDB===',
      'UEs-BA__',
      'data:application/pdf;base64,UEsDBA==',
    ]) {
      await rejects(() => decodeBase64Docx(bad), 'refused_docx', /^file: not valid base64$/)
    }
    await rejects(() => decodeBase64Docx(''), 'refused_docx', /^file: is empty/)
  })

  it('422 invalid_docx past 4 MiB of base64', async () => {
    await rejects(
      () => decodeBase64Docx('A'.repeat(4 * 1024 * 1024 + 4)),
      'refused_docx',
      /at most 4194304 \(4 MiB\)/,
    )
  })
})

describe('docxToHtml: a Word contract', () => {
  let html: string
  before(async () => {
    html = await docxToHtml((await contractDocx()).toString('base64'), { title: 'Service <Agreement>' })
  })

  it('keeps every tag whole as text: split over three runs, in a table cell, in a list item, on page 3', () => {
    // mammoth wraps the bold and the italic run; the finder reads through inline elements.
    assert.ok(html.includes('{{Na<strong>me</strong><em>;role=A}}</em>'))
    const text = textOf(html)
    for (const tag of [
      '{{Name;role=A}}',
      '{{Initials;role=A;type=initials}}',
      '{{Provider;role=B}}',
      '{{Date;role=A;type=date}}',
      '{{Final;role=A}}',
    ]) {
      assert.ok(text.includes(tag), tag)
    }
    assert.match(html, /<li>Initials: \{\{Initials;role=A;type=initials\}\}<\/li>/)
    assert.match(html, /<td><p>\{\{Provider;role=B\}\}<\/p><\/td>/)
  })

  it('keeps headings, bold, italic, nested lists, the table and the image inline as a data URL', () => {
    for (const part of ['<h1>Service Agreement</h1>', '<h2>Obligations</h2>', '<strong>binding</strong>']) {
      assert.ok(html.includes(part), part)
    }
    assert.ok(html.includes('<em>confidential</em>'))
    assert.match(html, /<ul><li>Deliver on time<ul><li>Report monthly<\/li><\/ul><\/li>/)
    assert.match(
      html,
      /<ol><li>Sign the order form<ol><li>Date it<\/li><\/ol><\/li><li>Return it<\/li><\/ol>/,
    )
    assert.match(html, /<table>/)
    // At the size Word gives it (96 × 64 px), not its own 24 × 16 pixels.
    assert.ok(
      html.includes(
        `<img alt="" src="data:image/png;base64,${LOGO_PNG.toString('base64')}" width="96" height="64" />`,
      ),
    )
  })

  it('keeps the two page breaks, so the last tag lands on page 3', () => {
    assert.equal(html.split('<div class="page-break"></div>').length, 3)
    assert.ok(html.lastIndexOf('page-break') < html.indexOf('{{Date;'))
  })

  it('is a whole document with a Word-like stylesheet: borders on cells, no page margins of its own', () => {
    assert.match(
      html,
      /^<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Service &lt;Agreement&gt;<\/title>/,
    )
    assert.match(html, /td, th \{ border: 0\.75pt solid #000;/)
    assert.match(html, /font-size: 11pt/)
    assert.doesNotMatch(html, /@page/)
  })
})

describe('docxToHtml: tags through what Word puts inside them', () => {
  it('drops soft hyphens and bookmarks inside a tag; proofing marks, smart tags, fields and revisions leave it whole', async () => {
    const body = [
      `<w:p>${run('{{Na')}<w:proofErr w:type="spellStart"/><w:bookmarkStart w:id="0" w:name="here"/>${run('m')}<w:bookmarkEnd w:id="0"/><w:r><w:softHyphen/><w:t>e;role=A}}</w:t></w:r><w:proofErr w:type="spellEnd"/></w:p>`,
      `<w:p><w:smartTag w:uri="x" w:element="y">${run('{{Smart;')}</w:smartTag>${run('role=B}}')}</w:p>`,
      `<w:p>${run('{{Field;')}<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>MERGEFIELD x</w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>${run('role=C}}')}<w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>`,
      `<w:p>${run('{{Rev;ro')}<w:ins w:id="1" w:author="a">${run('le=D}}')}</w:ins><w:del w:id="2" w:author="a"><w:r><w:delText>junk</w:delText></w:r></w:del></w:p>`,
      `<w:p><w:bookmarkStart w:id="3" w:name="keep"/>${run('Outside tags, anchors stay.')}</w:p>`,
    ].join('')
    const html = await docxToHtml(minimalDocx(body))
    for (const tag of ['{{Name;role=A}}', '{{Smart;role=B}}', '{{Field;role=C}}', '{{Rev;role=D}}']) {
      assert.ok(html.includes(tag), tag)
    }
    assert.ok(!html.includes('junk'))
    assert.ok(html.includes('<a id="keep"></a>'))
  })

  it('keeps a tag split over runs of the same formatting (revision ids) as one piece of text', async () => {
    const bold = '<w:b/>'
    const body = `<w:p>${run('{{Sp', bold)}${run('lit;', bold)}${run('role=A}}', bold)}</w:p>`
    assert.ok((await docxToHtml(minimalDocx(body))).includes('<p><strong>{{Split;role=A}}</strong></p>'))
  })

  it('keeps a tag with a hyperlinked run as inline markup the finder reads through', async () => {
    const body = `<w:p>${run('{{Li')}<w:hyperlink w:anchor="x">${run('nk', '<w:u w:val="single"/>')}</w:hyperlink>${run(';role=A}}')}</w:p>`
    const html = await docxToHtml(minimalDocx(body))
    assert.ok(html.includes('{{Li<a href="#x">nk</a>;role=A}}'))
  })
})

describe('docxToHtml: 422 invalid_docx', () => {
  it('refuses what is not a DOCX, naming the reason', async () => {
    await rejects(
      docxToHtml(Buffer.from('just text').toString('base64')),
      'refused_docx',
      /^file: not a Word document \(DOCX\): not a ZIP/,
    )
    await rejects(docxToHtml(notWordZip()), 'refused_docx', /^file: not a Word document \(DOCX\)/)
    await rejects(docxToHtml('not base64!'), 'refused_docx', /^file: not valid base64$/)
  })

  it('refuses a zip bomb from its directory, at once and without expanding it', async () => {
    const bomb = (await zipBombDocx()).toString('base64')
    const rssBefore = process.memoryUsage.rss()
    const started = process.hrtime.bigint()
    await rejects(
      docxToHtml(bomb),
      'refused_docx',
      /^file: entry word\/media\/zeros\.bin expands more than 100 times/,
    )
    const ms = Number(process.hrtime.bigint() - started) / 1e6
    process.stdout.write(`# docxToHtml refused the zip bomb in ${ms.toFixed(2)} ms\n`)
    const grown = process.memoryUsage.rss() - rssBefore
    assert.ok(grown < 100 * 1024 * 1024, `RSS grew by ${grown} bytes`)
  })

  it('refuses a directory that lies about a size, in the child, before mammoth', async () => {
    await rejects(
      docxToHtml(lyingDocx()),
      'refused_docx',
      /lie\.bin inflates past the 1000 bytes its directory declares/,
    )
  })

  it('refuses a tag in a header or a footer, which mammoth does not convert, even split over runs', async () => {
    const footer = Buffer.from(
      `<w:ftr xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:p>${run('{')}${run('{Sig;role=A}}')}</w:p></w:ftr>`,
    )
    await rejects(
      docxToHtml(minimalDocx('<w:p/>', [{ name: 'word/footer2.xml', data: footer }])),
      'refused_docx',
      /^file: a \{\{tag\}\} is in the document's footer \(word\/footer2\.xml\), which is not converted; move it into the body$/,
    )
  })

  it('refuses a DOCX whose HTML would pass 8 MiB (large images), before Chromium sees it', async () => {
    // 6.5 MiB that deflates well within the gate's 100:1, 8.7 MiB once in base64.
    const image = Buffer.alloc(6.5 * 1024 * 1024)
    const noise = randomBytes(image.length / 64)
    for (let i = 0; i < noise.length; i++) image[i * 64] = noise[i]!
    const docx = minimalDocx(picture('r:embed'), [
      { name: 'word/_rels/document.xml.rels', data: rels('media/big.png') },
      { name: 'word/media/big.png', data: image },
    ])
    await rejects(
      docxToHtml(docx),
      'refused_docx',
      /^file: the DOCX converts to 8\.\d MiB of HTML; at most 8 MiB/,
    )
  })
})

describe('docxToHtml: what mammoth is not allowed to do', () => {
  it('never reads a linked image from the disk; the warning goes to the debug log, the conversion succeeds', async () => {
    const logged: object[] = []
    const docx = minimalDocx(picture('r:link'), [
      { name: 'word/_rels/document.xml.rels', data: rels('file:///etc/passwd', ' TargetMode="External"') },
    ])
    const html = await docxToHtml(docx, { logger: { debug: (details) => logged.push(details) } })
    assert.match(html, /<p>Logo:<\/p>/)
    assert.doesNotMatch(html, /<img/)
    assert.match(JSON.stringify(logged), /external file access is disabled/)
  })
})

describe('docxToHtml: what the DOCX is not allowed to do', () => {
  it('ignores a style map embedded in the DOCX (it could turn paragraphs into <script>)', async () => {
    const docx = minimalDocx(`<w:p>${run('alert(1)')}</w:p><w:p>${run('{{A;role=X}}')}</w:p>`, [
      { name: 'mammoth/style-map', data: Buffer.from('p => script:fresh\n') },
    ])
    const html = await docxToHtml(docx)
    assert.doesNotMatch(html, /<script/)
    assert.ok(html.includes('<p>{{A;role=X}}</p>'))
  })

  it('drops a javascript: hyperlink target, keeping its text', async () => {
    const linkRels = Buffer.from(
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="javascript:alert(1)" TargetMode="External"/></Relationships>',
    )
    const body = `<w:p><w:hyperlink xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" r:id="rId1">${run('click')}</w:hyperlink></w:p>`
    const html = await docxToHtml(
      minimalDocx(body, [{ name: 'word/_rels/document.xml.rels', data: linkRels }]),
    )
    assert.ok(html.includes('<p><a>click</a></p>'))
    assert.doesNotMatch(html, /javascript/)
  })
})

describe('docxToHtml: 500 docx_convert_failed', () => {
  it('when mammoth throws on a file that passed the gate (malformed XML)', async () => {
    await rejects(
      docxToHtml(malformedXmlDocx()),
      'docx_failed',
      /^The DOCX could not be converted: its XML is malformed/,
    )
  })

  it('when the XML is nested deeper than mammoth can recurse', async () => {
    await rejects(
      docxToHtml(deeplyNestedDocx()),
      'docx_failed',
      /^The DOCX could not be converted: its XML is nested too deeply\.$/,
    )
  })

  it('when mammoth outgrows the memory limit on a file the gate let through; the next conversion works', async () => {
    const started = process.hrtime.bigint()
    // A smaller limit than the default 1 GiB (where a 10 MiB document.xml fails after ~7 s), so
    // the test is quick; this pool of its own still starts under it (tsx needs ~160 MiB).
    const options = { memoryLimitBytes: 384 * 1024 * 1024, poolSize: 1 }
    await rejects(docxToHtml(heavyDocx(4), options), 'docx_failed', /exhausted the memory allowed or crashed/)
    const ms = Number(process.hrtime.bigint() - started) / 1e6
    process.stdout.write(`# a 4 MiB document.xml failed in ${ms.toFixed(0)} ms under a 384 MiB limit\n`)
    assert.match(await docxToHtml(await contractDocx(), options), /\{\{Provider;role=B\}\}/)
  })

  it('when the child takes longer than the timeout; the next conversion works', async () => {
    const docx = await contractDocx()
    await rejects(docxToHtml(docx, { timeoutMs: 1 }), 'docx_failed', /within 0\.001 s/)
    assert.match(await docxToHtml(docx), /\{\{Provider;role=B\}\}/)
  })
})
