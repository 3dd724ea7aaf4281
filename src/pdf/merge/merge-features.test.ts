// The merge on the feature fixtures another helper wrote for issue #21 (test/fixtures/pdf-features.ts),
// read back with the shared checks (test/pdf-checks.ts): PDFs built independently of the merge's
// own fixtures, so neither side's habits hide a gap.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import {
  FORM_FIELDS,
  OUTLINE_TITLES,
  pdfWithForm,
  pdfWithOutlines,
  SIGNED_TEXT,
  signedPdf,
  TAGGED_TEXT,
  taggedPdf,
} from '../../../test/fixtures/pdf-features.ts'
import { assertClean, merge, pageTexts, poppler } from '../../../test/merge-checks.ts'
import {
  attachmentNames,
  formFields,
  orphanWidgets,
  outlineTitles,
  pageLabels,
  pdfsig,
} from '../../../test/pdf-checks.ts'

describe('mergeDocuments on the issue #21 feature fixtures', () => {
  it('outlines, labels and attachment first; then a form, a tagged page and a signed page', async () => {
    const { merged, notes, offsets } = merge([
      { name: 'contract.pdf', bytes: await pdfWithOutlines() },
      { name: 'form.pdf', bytes: await pdfWithForm() },
      { name: 'tagged.pdf', bytes: await taggedPdf() },
      { name: 'signed.pdf', bytes: await signedPdf() },
    ])
    assert.deepEqual(offsets, [0, 3, 4, 5])
    await assertClean(merged)
    assert.equal(await orphanWidgets(merged), 0)
    assert.deepEqual(await outlineTitles(merged), [
      'contract.pdf',
      ...OUTLINE_TITLES,
      'form.pdf',
      'tagged.pdf',
      'signed.pdf',
    ])
    const fields = await formFields(merged)
    for (const field of FORM_FIELDS) {
      const found = fields.find((candidate) => candidate.name === `form.${field.name}`)
      assert.deepEqual(found, {
        ...field,
        name: `form.${field.name}`,
        pages: field.pages.map((page) => page + 3),
      })
    }
    assert.deepEqual(await attachmentNames(merged), ['terms.txt'])
    assert.deepEqual(
      (await pageLabels(merged)).map((range) => range.firstPage),
      [0, 1, 3, 4, 5],
      "the first document's ranges, then one per later document",
    )
    const texts = await pageTexts(merged)
    assert.equal(texts.length, 6)
    assert.match(texts[4]!, new RegExp(TAGGED_TEXT))
    assert.match(texts[5]!, new RegExp(SIGNED_TEXT))
    assert.equal(notes.length, 2, notes.join('\n'))
    assert.match(notes[0]!, /^document 3 \(tagged\.pdf\) is tagged/)
    assert.match(
      notes[1]!,
      /^document 4 \(signed\.pdf\) carried a signature by Earlier signer, dated 2026-01-15T10:30:00\.000Z/,
    )
    assert.ok((await pdfsig(merged)).every((signature) => !signature.signed))
  })

  it('the tagged fixture after itself: both paragraphs in the structure tree', async () => {
    const { merged, notes } = merge([
      { name: 'one.pdf', bytes: await taggedPdf() },
      { name: 'two.pdf', bytes: await taggedPdf() },
    ])
    assert.deepEqual(notes, [])
    const structure = await poppler('pdfinfo', merged, ['-struct-text'])
    assert.equal(structure.split(TAGGED_TEXT).length - 1, 2, structure)
    assert.match(structure, /Part "two\.pdf"/)
    await assertClean(merged)
  })
})
