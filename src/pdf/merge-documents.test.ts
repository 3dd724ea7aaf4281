import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { promisify } from 'node:util'
import * as mupdf from 'mupdf'
import { formPdf, loopedOutlinePdf, oddFormPdf, textPdf } from '../../test/fixtures/merge-pdfs.ts'
import { catalogKeys, formFields, pdfsig, pdftotext, qpdfCheck } from '../../test/pdf-checks.ts'
import { mergeDocuments } from './merge-documents.ts'
import { openPdf } from './mupdf-open.ts'
import { sealPdf } from './seal-pades.ts'
import { loadSigningCertificate, type SealingIdentity } from './signing-certificate.ts'

const execFileAsync = promisify(execFile)

interface Input {
  name: string
  bytes: Uint8Array
}

/** Merges as the finalizer will: open each with openPdf, merge into the first, save incrementally. */
function merge(inputs: Input[]) {
  const [base, ...others] = inputs.map(({ name, bytes }) => ({ name, doc: openPdf(bytes).doc }))
  const result = mergeDocuments(base!, others)
  const merged = base!.doc.saveToBuffer('incremental').asUint8Array().slice()
  return { ...result, merged }
}

/**
 * qpdf --check passes without a warning (exit 0), and so does qpdf reading the form and outlines
 * (where it says "this widget annotation is not reachable from /AcroForm", or finds a loop).
 */
async function assertClean(pdf: Uint8Array): Promise<void> {
  const check = await qpdfCheck(pdf)
  assert.equal(check.code, 0, check.output)
  assert.doesNotMatch(check.output, /WARNING/)
  const { stderr } = await qpdf(pdf, ['--json=2', '--json-key=acroform', '--json-key=outlines'])
  assert.equal(stderr, '', 'qpdf reading the form and outlines')
}

const qpdf = (pdf: Uint8Array, args: string[]) => runOn('qpdf', pdf, args)

/** AES-256 with an empty user password: every viewer opens it without asking. */
async function encrypt(pdf: Uint8Array): Promise<Uint8Array> {
  const dir = await mkdtemp(join(tmpdir(), 'paraph-merge-'))
  try {
    await writeFile(join(dir, 'in.pdf'), pdf)
    await execFileAsync('qpdf', [
      '--encrypt',
      '',
      'owner',
      '256',
      '--',
      join(dir, 'in.pdf'),
      join(dir, 'out.pdf'),
    ])
    return new Uint8Array(await readFile(join(dir, 'out.pdf')))
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
const poppler = async (tool: string, pdf: Uint8Array, args: string[]) => (await runOn(tool, pdf, args)).stdout

/** `tool` with `args`, then the path of `pdf` written to a private file. */
async function runOn(
  tool: string,
  pdf: Uint8Array,
  args: string[],
): Promise<{ stdout: string; stderr: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'paraph-merge-'))
  try {
    await writeFile(join(dir, 'in.pdf'), pdf)
    return await execFileAsync(tool, [...args, join(dir, 'in.pdf')], { maxBuffer: 64 * 1024 * 1024 })
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

interface QpdfOutline {
  title: string
  destpageposfrom1: number | null
  open: boolean
  kids: QpdfOutline[]
}

async function qpdfOutlines(pdf: Uint8Array): Promise<QpdfOutline[]> {
  return JSON.parse((await qpdf(pdf, ['--json=2', '--json-key=outlines'])).stdout).outlines
}

/** "title→page" per item, children indented, as a reader would list the bookmarks. */
function outlineShape(items: QpdfOutline[], depth = 0): string[] {
  return items.flatMap((item) => [
    `${'  '.repeat(depth)}${item.title}→${item.destpageposfrom1}`,
    ...outlineShape(item.kids, depth + 1),
  ])
}

/** Every /Count of the merged outline against the tree it sits on (ISO 32000-1 Table 153). */
function assertCountsConsistent(pdf: Uint8Array): void {
  const doc = new mupdf.PDFDocument(pdf)
  const visible = (node: mupdf.PDFObject): number => {
    let count = 0
    for (let child = node.get('First'); child.isDictionary(); child = child.get('Next')) {
      assert.equal(child.get('Parent').asIndirect(), node.asIndirect(), 'each child names its parent')
      const below = visible(child)
      const stored = child.get('Count')
      if (below > 0)
        assert.equal(Math.abs(stored.asNumber()), stored.asNumber() > 0 ? below : Math.abs(stored.asNumber()))
      count += 1 + (stored.isNumber() && stored.asNumber() > 0 ? below : 0)
    }
    return count
  }
  const root = doc.getTrailer().get('Root').get('Outlines')
  assert.equal(root.get('Count').asNumber(), visible(root))
}

const pageTexts = async (pdf: Uint8Array) =>
  (await pdftotext(pdf))
    .split('\f')
    .map((text) => text.trim())
    .filter(Boolean)

describe('mergeDocuments: pages', () => {
  it('every page of every document, in order, and where each document starts', async () => {
    const { merged, offsets, notes } = merge([
      { name: 'a.pdf', bytes: textPdf('Alpha', 2) },
      { name: 'b.pdf', bytes: textPdf('Bravo', 3) },
      { name: 'c.pdf', bytes: textPdf('Charlie', 1) },
    ])
    assert.deepEqual(offsets, [0, 2, 5])
    assert.deepEqual(notes, [])
    assert.deepEqual(await pageTexts(merged), [
      'Alpha page 1',
      'Alpha page 2',
      'Bravo page 1',
      'Bravo page 2',
      'Bravo page 3',
      'Charlie page 1',
    ])
    await assertClean(merged)
  })

  it('the first document is the byte prefix of the incremental save', async () => {
    const original = textPdf('Alpha', 2, { outline: [{ title: 'Intro', page: 2 }] })
    const { merged } = merge([
      { name: 'a.pdf', bytes: original },
      {
        name: 'b.pdf',
        bytes: await formPdf('Bravo', { name: 'B', agree: true, choice: 'red', city: 'Rome' }),
      },
    ])
    assert.ok(merged.length > original.length)
    assert.ok(Buffer.from(merged.subarray(0, original.length)).equals(Buffer.from(original)))
    await assertClean(merged)
  })
})

describe('mergeDocuments: outlines', () => {
  it('one item per document at its first page, each document’s own two levels beneath, named destinations resolved', async () => {
    const { merged } = merge([
      {
        name: 'Contract.pdf',
        bytes: textPdf('Alpha', 3, {
          outline: [
            { title: 'A1', page: 1, kids: [{ title: 'A1.1', page: 2 }] },
            { title: 'A2', page: 3 },
          ],
        }),
      },
      {
        name: 'Annex 1.pdf',
        bytes: textPdf('Bravo', 3, {
          namedDests: { terms: 3, start: 1 },
          outline: [
            {
              title: 'B1',
              named: 'start',
              kids: [
                { title: 'B1.1', page: 2 },
                { title: 'B1.2', named: 'terms', action: true },
              ],
            },
            { title: 'B2', page: 3, closed: true, kids: [{ title: 'B2.1', page: 1 }] },
          ],
        }),
      },
      {
        name: 'Annex 2.pdf',
        bytes: textPdf('Charlie', 2, {
          namedDests: { end: 2 },
          oldStyleDests: true,
          outline: [
            {
              title: 'C1',
              named: 'end',
              kids: [{ title: 'C1.1', page: 1, kids: [{ title: 'C1.1.1', page: 2 }] }],
            },
          ],
        }),
      },
    ])
    assert.deepEqual(outlineShape(await qpdfOutlines(merged)), [
      'Contract.pdf→1',
      '  A1→1',
      '    A1.1→2',
      '  A2→3',
      'Annex 1.pdf→4',
      '  B1→4',
      '    B1.1→5',
      '    B1.2→6',
      '  B2→6',
      '    B2.1→4',
      'Annex 2.pdf→7',
      '  C1→8',
      '    C1.1→7',
      '      C1.1.1→8',
    ])
    const top = await qpdfOutlines(merged)
    assert.deepEqual(
      top[1]!.kids.map((item) => item.open),
      [true, false],
      'each item stays open or closed as its author left it',
    )
    assertCountsConsistent(merged)
    await assertClean(merged)
  })

  it('an outline is made for documents that had none, titled with their names (any script)', async () => {
    const { merged } = merge([
      { name: '契約書.pdf', bytes: textPdf('Alpha', 1) },
      { name: 'عقد.pdf', bytes: textPdf('Bravo', 2) },
    ])
    assert.deepEqual(outlineShape(await qpdfOutlines(merged)), ['契約書.pdf→1', 'عقد.pdf→2'])
    assertCountsConsistent(merged)
    await assertClean(merged)
  })

  it('a looping outline in a later document is cut where it loops, and its counts remade', async () => {
    const { merged } = merge([
      { name: 'a.pdf', bytes: textPdf('Alpha', 1) },
      { name: 'loop.pdf', bytes: loopedOutlinePdf() },
    ])
    assert.deepEqual(outlineShape(await qpdfOutlines(merged)), [
      'a.pdf→1',
      'loop.pdf→2',
      '  one→2',
      '  two→3',
    ])
    assertCountsConsistent(merged)
    await assertClean(merged)
  })

  it('a link to a named destination of a later document lands on its grafted page', async () => {
    const { merged } = merge([
      { name: 'a.pdf', bytes: textPdf('Alpha', 2) },
      { name: 'b.pdf', bytes: textPdf('Bravo', 3, { namedDests: { terms: 3 }, linkTo: 'terms' }) },
    ])
    const doc = new mupdf.PDFDocument(merged)
    const links = doc.loadPage(2).getLinks()
    assert.equal(links.length, 1)
    assert.equal(doc.resolveLink(links[0]!), 4, 'page 3 of b.pdf is page 5 (index 4) of the merged PDF')
    await assertClean(merged)
  })
})

describe('mergeDocuments: forms', () => {
  it('fields of the same names in three documents: all present, named uniquely, values kept, widgets reachable', async () => {
    const { merged } = merge([
      {
        name: 'form.pdf',
        bytes: await formPdf(
          'Alpha',
          { name: 'Ann', agree: true, choice: 'red', city: 'Oslo' },
          { extraField: 'annex' },
        ),
      },
      {
        name: 'annex.pdf',
        bytes: await formPdf('Bravo', { name: 'Bob', agree: false, choice: 'green', city: 'Rome' }),
      },
      {
        name: 'form.pdf',
        bytes: await formPdf(
          'Charlie',
          { name: 'Cy', agree: true, choice: 'green', city: 'Lima' },
          { formDefaults: true },
        ),
      },
    ])
    await assertClean(merged)
    const fields = (await formFields(merged)).map(({ name, type, value, pages }) => ({
      name,
      type,
      value,
      pages,
    }))
    assert.deepEqual(
      fields.sort((a, b) => (a.name < b.name ? -1 : 1)),
      [
        { name: 'address.city', type: 'text', value: 'Oslo', pages: [2] },
        { name: 'agree', type: 'checkbox', value: 'Yes', pages: [1] },
        { name: 'annex', type: 'text', value: 'extra', pages: [2] },
        { name: 'annex (2).address.city', type: 'text', value: 'Rome', pages: [4] },
        { name: 'annex (2).agree', type: 'checkbox', value: null, pages: [3] },
        { name: 'annex (2).choice', type: 'choice', value: 'green', pages: [3] },
        { name: 'annex (2).name', type: 'text', value: 'Bob', pages: [3] },
        { name: 'choice', type: 'choice', value: 'red', pages: [1] },
        { name: 'form (3).address.city', type: 'text', value: 'Lima', pages: [6] },
        { name: 'form (3).agree', type: 'checkbox', value: 'Yes', pages: [5] },
        { name: 'form (3).choice', type: 'choice', value: 'green', pages: [5] },
        { name: 'form (3).name', type: 'text', value: 'Cy', pages: [5] },
        { name: 'name', type: 'text', value: 'Ann', pages: [1] },
      ],
    )
    const form = new mupdf.PDFDocument(merged).getTrailer().get('Root').get('AcroForm')
    assert.equal(form.get('NeedAppearances').asBoolean(), true, 'kept from the third document')
    assert.equal(form.get('DR', 'Font', 'Helv', 'BaseFont').asName(), 'Helvetica', 'the font its /DA names')
    const third = form.get('Fields', 6) // after the first document's 5 roots and annex (2)
    assert.equal(third.get('T').asString(), 'form (3)')
    assert.equal(
      third.get('DA').asString(),
      '/Helv 0 Tf 0 g',
      'its default appearance, inherited by its fields',
    )
    // The values show: pdftotext reads the text fields' appearances.
    const text = await pdftotext(merged)
    for (const value of ['Ann', 'Bob', 'Cy', 'Rome', 'Lima']) assert.match(text, new RegExp(`\\b${value}\\b`))
  })

  it('a form document after one without a form gets an /AcroForm of its own in the merged PDF', async () => {
    const { merged } = merge([
      { name: 'letter.pdf', bytes: textPdf('Alpha', 1) },
      {
        name: 'form.pdf',
        bytes: await formPdf('Bravo', { name: 'Bob', agree: true, choice: 'red', city: 'Rome' }),
      },
    ])
    await assertClean(merged)
    assert.deepEqual((await formFields(merged)).map((field) => field.name).sort(), [
      'form.address.city',
      'form.agree',
      'form.choice',
      'form.name',
    ])
  })
})

describe('mergeDocuments: field trees as real files write them', () => {
  it('a kid listed as a root, a widget without /Parent, a parent without /Kids, a forgotten field, a /Parent loop: all reachable, full names kept', async () => {
    const { merged } = merge([
      { name: 'a.pdf', bytes: textPdf('Alpha', 1) },
      { name: 'odd.pdf', bytes: oddFormPdf() },
    ])
    await assertClean(merged)
    const fields = (await formFields(merged)).map(({ name, value, pages }) => ({ name, value, pages }))
    assert.deepEqual(
      fields.sort((a, b) => (a.name < b.name ? -1 : 1)),
      [
        { name: 'odd.city', value: 'v:city', pages: [2] },
        // The loop is cut where it closes: "inner" (whose /Parent led back to it) becomes the root.
        { name: 'odd.inner', value: 'v:inner', pages: [2] },
        { name: 'odd.orphan', value: 'v:orphan', pages: [2] },
        { name: 'odd.veg', value: 'v:veg', pages: [2] },
      ],
    )
    const shown = await pdftotext(merged, { firstPage: 2 })
    for (const name of ['veg', 'city', 'orphan', 'inner'])
      assert.match(shown, new RegExp(`v:${name}`), 'its appearance')
  })
})

describe('mergeDocuments: earlier signatures', () => {
  let dir: string
  let identity: SealingIdentity
  const signed = async (label: string) =>
    sealPdf(textPdf(label, 2), identity, { signedAt: new Date('2026-01-15T10:00:00Z'), name: 'Jane Signer' })

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'paraph-merge-seal-'))
    identity = await loadSigningCertificate({ dataDir: dir })
  })
  after(() => rm(dir, { recursive: true, force: true }))

  it('a signature in document 2 is said in the notes, its field kept unsigned, and the merged file is clean', async () => {
    const { merged, notes } = merge([
      { name: 'a.pdf', bytes: textPdf('Alpha', 1) },
      { name: 'contract.pdf', bytes: await signed('Bravo') },
    ])
    assert.equal(notes.length, 1)
    assert.match(notes[0]!, /^document 2 \(contract\.pdf\) carried a signature by Jane Signer/)
    assert.match(notes[0]!, /cannot be kept in a merged PDF/)
    assert.ok(
      (await pdfsig(merged)).every((signature) => !signature.signed),
      'no broken signature left',
    )
    await assertClean(merged)
    // Sealing the merged PDF afterwards gives one valid signature over the whole file.
    const sealed = await sealPdf(merged, identity, { signedAt: new Date('2026-01-16T10:00:00Z') })
    const signatures = (await pdfsig(sealed)).filter((signature) => signature.signed)
    assert.equal(signatures.length, 1)
    assert.ok(signatures[0]!.valid && signatures[0]!.totalDocumentSigned, signatures[0]!.raw)
  })

  it('a signature in the first document stays valid: the merge only appends', async () => {
    const { merged, notes } = merge([
      { name: 'contract.pdf', bytes: await signed('Alpha') },
      { name: 'b.pdf', bytes: textPdf('Bravo', 1) },
    ])
    assert.deepEqual(notes, [])
    const [signature, ...more] = await pdfsig(merged)
    assert.equal(more.length, 0)
    assert.ok(signature!.valid, signature!.raw)
    await assertClean(merged)
  })
})

describe('mergeDocuments: tags', () => {
  it('a tagged document after a tagged first one: its elements in a Part bearing its name inside the first’s Document, each page’s marked content found again', async () => {
    const { merged, notes } = merge([
      { name: 'a.pdf', bytes: textPdf('Alpha', 2, { tagged: true }) },
      { name: 'b.pdf', bytes: textPdf('Bravo', 1) },
      { name: 'c.pdf', bytes: textPdf('Charlie', 2, { tagged: true }) },
    ])
    assert.deepEqual(notes, [])
    assert.deepEqual((await poppler('pdfinfo', merged, ['-struct-text'])).trim().split('\n'), [
      'Document',
      '  P (block)',
      '    "Alpha page 1"',
      '  P (block)',
      '    "Alpha page 2"',
      '  Part "c.pdf"',
      '    Document',
      '      P (block)',
      '        "Charlie page 1"',
      '      P (block)',
      '        "Charlie page 2"',
    ])
    assertParentTreeFindsEachPage(merged, [0, 1, 3, 4])
    await assertClean(merged)
  })

  it('a tagged document after an untagged first one: said in the notes, its pages untagged', async () => {
    const { merged, notes } = merge([
      { name: 'a.pdf', bytes: textPdf('Alpha', 1) },
      { name: 'b.pdf', bytes: textPdf('Bravo', 1, { tagged: true }) },
    ])
    assert.ok(!(await catalogKeys(merged)).has('StructTreeRoot'))
    assert.deepEqual(notes, [
      'document 2 (b.pdf) is tagged for accessibility; its tags could not be merged, so its pages are untagged',
    ])
    assert.ok(
      new mupdf.PDFDocument(merged).findPage(1).get('StructParents').isNull(),
      'no key into a tree not there',
    )
    await assertClean(merged)
  })
})

/**
 * The reverse lookup a screen reader makes from content to element: each tagged page's
 * /StructParents key, through the merged /ParentTree, gives for MCID 0 an element on that page.
 */
function assertParentTreeFindsEachPage(pdf: Uint8Array, taggedPages: number[]): void {
  const doc = new mupdf.PDFDocument(pdf)
  const tree = doc.getTrailer().get('Root', 'StructTreeRoot', 'ParentTree')
  const entries = new Map<number, mupdf.PDFObject>()
  const leaves = tree.get('Kids').isArray()
    ? Array.from({ length: tree.get('Kids').length }, (_, i) => tree.get('Kids', i))
    : [tree]
  for (const leaf of leaves) {
    const nums = leaf.get('Nums')
    for (let i = 0; i < nums.length; i += 2) entries.set(nums.get(i).asNumber(), nums.get(i + 1))
  }
  const keys = taggedPages.map((index) => {
    const page = doc.findPage(index)
    const key = page.get('StructParents').asNumber()
    const element = entries.get(key)?.get(0)
    assert.equal(element?.get('Pg').asIndirect(), page.asIndirect(), `page ${index + 1}: key ${key}`)
    return key
  })
  assert.equal(new Set(keys).size, keys.length, 'each page its own key')
}

describe('mergeDocuments: what is not carried', () => {
  it('scripts of a later document are dropped; its navigation links stay', async () => {
    const original = textPdf('Alpha', 1)
    const { merged } = merge([
      { name: 'a.pdf', bytes: original },
      { name: 'b.pdf', bytes: textPdf('Bravo', 2, { scriptLink: true }) },
    ])
    const appended = Buffer.from(merged.subarray(original.length)).toString('latin1')
    assert.doesNotMatch(appended, /JavaScript|\/JS\b/)
    await assertClean(merged)
  })
})

describe('mergeDocuments: encrypted documents (empty user password)', () => {
  it('an encrypted later document is merged readable; an encrypted first document stays the prefix, its revision encrypted', async () => {
    const base = await encrypt(textPdf('Alpha', 1))
    const later = await encrypt(
      await formPdf('Bravo', { name: 'Bob', agree: true, choice: 'red', city: 'Rome' }),
    )
    const { merged } = merge([
      { name: 'a.pdf', bytes: base },
      { name: 'b.pdf', bytes: later },
    ])
    assert.ok(Buffer.from(merged.subarray(0, base.length)).equals(Buffer.from(base)))
    assert.deepEqual(await pageTexts(merged), [
      'Alpha page 1',
      'Bravo page 1\nBob\nred',
      'Bravo page 2\nRome',
    ])
    assert.deepEqual((await formFields(merged)).map((field) => `${field.name}=${field.value}`).sort(), [
      'b.address.city=Rome',
      'b.agree=Yes',
      'b.choice=red',
      'b.name=Bob',
    ])
    const check = await qpdfCheck(merged)
    assert.equal(check.code, 0, check.output)
  })
})

describe('mergeDocuments: layers', () => {
  it('each document’s layers keep their default states, hidden stays hidden, listed under its name', async () => {
    const { merged, notes } = merge([
      { name: 'a.pdf', bytes: textPdf('Alpha', 1, { layers: [{ name: 'Base', hidden: false }] }) },
      {
        name: 'b.pdf',
        bytes: textPdf('Bravo', 1, {
          layers: [
            { name: 'Draft', hidden: true },
            { name: 'Final', hidden: false },
          ],
        }),
      },
      {
        name: 'c.pdf',
        bytes: textPdf('Charlie', 1, {
          baseStateOff: true,
          layers: [
            { name: 'Shown', hidden: false },
            { name: 'Secret', hidden: true },
          ],
        }),
      },
    ])
    assert.deepEqual(notes, [])
    const text = await pdftotext(merged)
    for (const shown of ['Base', 'Final', 'Shown']) assert.match(text, new RegExp(`${shown} layer text`))
    for (const hidden of ['Draft', 'Secret']) assert.doesNotMatch(text, new RegExp(`${hidden} layer text`))
    const config = new mupdf.PDFDocument(merged).getTrailer().get('Root').get('OCProperties', 'D')
    const order = config.get('Order')
    assert.deepEqual(
      [order.get(1, 0).asString(), order.get(2, 0).asString()],
      ['b.pdf', 'c.pdf'],
      'the layer panel lists each later document’s layers under its name',
    )
    await assertClean(merged)
  })
})

describe('mergeDocuments: attached files', () => {
  it('every document’s attachments are in the merged PDF, same file names apart', async () => {
    const { merged, notes } = merge([
      { name: 'a.pdf', bytes: textPdf('Alpha', 1, { attachments: { 'data.txt': 'alpha data' } }) },
      {
        name: 'b.pdf',
        bytes: textPdf('Bravo', 1, { attachments: { 'data.txt': 'bravo data', 'more.txt': 'more' } }),
      },
    ])
    assert.deepEqual(notes, [])
    assert.match(await poppler('pdfdetach', merged, ['-list']), /^3 embedded files/m)
    const keys = ['data.txt', 'b.pdf/data.txt', 'b.pdf/more.txt']
    const contents = await Promise.all(
      keys.map(async (key) => (await qpdf(merged, [`--show-attachment=${key}`])).stdout),
    )
    assert.deepEqual(contents, ['alpha data', 'bravo data', 'more'])
    await assertClean(merged)
  })
})

describe('mergeDocuments: page labels', () => {
  it('each document keeps its labels; one without is numbered from its own first page', async () => {
    const { merged } = merge([
      {
        name: 'a.pdf',
        bytes: textPdf('Alpha', 3, {
          labels: [
            { from: 0, style: 'r' },
            { from: 1, style: 'D' },
          ],
        }),
      },
      { name: 'b.pdf', bytes: textPdf('Bravo', 2) },
      { name: 'c.pdf', bytes: textPdf('Charlie', 2, { labels: [{ from: 0, style: 'D', prefix: 'C-' }] }) },
    ])
    const doc = new mupdf.PDFDocument(merged)
    const labels = Array.from({ length: doc.countPages() }, (_, i) => doc.loadPage(i).getLabel())
    assert.deepEqual(labels, ['i', '1', '2', '1', '2', 'C-1', 'C-2'])
    await assertClean(merged)
  })
})

describe('mergeDocuments: size', () => {
  it('three 100-page documents merge into 300 pages (time reported)', async (t) => {
    const inputs = ['Alpha', 'Bravo', 'Charlie'].map((label) => ({
      name: `${label}.pdf`,
      bytes: textPdf(label, 100, { outline: [{ title: `${label} start`, page: 1 }] }),
    }))
    const docs = inputs.map(({ name, bytes }) => ({ name, doc: openPdf(bytes).doc }))
    const started = performance.now()
    const { offsets } = mergeDocuments(docs[0]!, docs.slice(1))
    const merging = performance.now() - started
    const merged = docs[0]!.doc.saveToBuffer('incremental').asUint8Array().slice()
    const total = performance.now() - started
    t.diagnostic(`merge ${merging.toFixed(1)} ms, merge + incremental save ${total.toFixed(1)} ms`)
    assert.deepEqual(offsets, [0, 100, 200])
    assert.equal((await pdftotext(merged, { firstPage: 201, lastPage: 201 })).trim(), 'Charlie page 1')
    assert.ok(total < 5000, `${total} ms`)
    await assertClean(merged)
  })
})
