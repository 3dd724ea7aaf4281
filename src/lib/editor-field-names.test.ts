// The editor's default field names, recognised exactly: in every console language, on a field of
// their own type only, and never a name that merely looks like one.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { nextName } from '../console/app/editor/model.ts'
import { EN } from '../console/app/texts-en.ts'
import { FR } from '../console/app/texts-fr.ts'
import { isEditorDefaultName } from './editor-field-names.ts'
import { FIELD_TYPES } from './field-types.ts'

describe('isEditorDefaultName', () => {
  for (const [lang, t] of [
    ['en', EN],
    ['fr', FR],
  ] as const) {
    it(`${lang}: every name the editor makes, for every type, is recognised on that type`, () => {
      for (const type of FIELD_TYPES) {
        const first = nextName([], t[`type_${type}`])
        assert.ok(isEditorDefaultName(first, type), `${lang} ${type}: ${first}`)
        assert.ok(isEditorDefaultName(`${t[`type_${type}`]} 12`, type), `${lang} ${type} 12`)
      }
    })
  }

  it('keeps a name on a field of another type, or with anything more or less', () => {
    assert.equal(isEditorDefaultName('Date 1', 'text'), false)
    assert.equal(isEditorDefaultName('Signature 2', 'initials'), false)
    for (const name of [
      'Signature',
      'Signature 0',
      'Signature 01',
      'Signature  1',
      'signature 1',
      'Signature 1 of 2',
      'Signature 1a',
      ' Signature 1',
      'Signature 1 ',
      'Signature-1',
      'Client signature 1',
    ]) {
      assert.equal(isEditorDefaultName(name, 'signature'), false, name)
    }
  })
})
