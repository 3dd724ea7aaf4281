import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import * as mupdf from 'mupdf'
import { formPdf, oddFormPdf, textPdf } from '../../../test/fixtures/merge-pdfs.ts'
import { assertClean, merge } from '../../../test/merge-checks.ts'
import { formFields, pdftotext } from '../../../test/pdf-checks.ts'

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
