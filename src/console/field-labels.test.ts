import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { fieldLabel, humanMessage } from './app/field-labels.ts'
import { EN } from './app/texts-en.ts'
import { FR } from './app/texts-fr.ts'

describe('an API refusal in the console’s words', () => {
  it('names a signer’s field as the send form does, in each language', () => {
    assert.equal(fieldLabel('submitters[0].email', EN), 'Signer 1 › E-mail address')
    assert.equal(fieldLabel('submitters[2].role', FR), 'Signataire 3 › Rôle')
    assert.equal(fieldLabel('documents[1].fields[0].areas[3]', EN), 'Document 2 › Field 1 › Area 4')
    // A legal hold's ids (docs/console.md#legal-holds)
    assert.equal(fieldLabel('submission_ids[1]', EN), 'Submission 2')
    assert.equal(fieldLabel('reason', FR), 'Motif')
  })

  it('uses a sender’s value’s own field name, and spells out an unknown API name', () => {
    assert.equal(fieldLabel('values.Start date', EN), 'Start date')
    assert.equal(fieldLabel('completed_redirect_url', EN), 'Completed redirect url')
  })

  it('puts the path a message begins with in words, and leaves other messages as they are', () => {
    const error = { message: 'submitters[0].email: must be an e-mail address', param: 'submitters[0].email' }
    assert.equal(humanMessage(error, EN), 'Signer 1 › E-mail address: must be an e-mail address')
    assert.equal(
      humanMessage({ message: 'url is not an https URL', param: 'url' }, EN),
      'URL: is not an https URL',
    )
    assert.equal(
      humanMessage({ message: 'The PDF has no pages.', param: 'documents[0]' }, EN),
      'The PDF has no pages.',
    )
    assert.equal(humanMessage({ message: 'Too many requests.', param: null }, EN), 'Too many requests.')
  })

  it('never shows a pattern: an id’s by the prefixes it begins with, any other as a form not met', () => {
    const keyId = { message: 'key_id: must match pattern "^(key|mem)_[0-9A-Za-z]{24}$".', param: 'key_id' }
    assert.equal(humanMessage(keyId, EN), 'Caller: must be an id beginning with key_ or mem_')
    assert.equal(humanMessage(keyId, FR), 'Appelant: doit être un id commençant par key_ ou mem_')
    const requestId = {
      message: 'request_id: must match pattern "^req_[0-9A-Za-z]{24}$"',
      param: 'request_id',
    }
    assert.equal(humanMessage(requestId, EN), 'Request id: must be an id beginning with req_')
    const other = { message: 'status: must match pattern "^[1-5]([0-9]{2}|xx)$".', param: 'status' }
    assert.equal(humanMessage(other, EN), 'Status: is not written in the expected form')
  })
})
