// Every event type has a sentence of its own in the audit trail. The list lives here
// (event-types.ts) and the sentences in pdf/audit/audit-sentences.ts, which spells the types out
// because pdf/ imports no capability: this test keeps the two in step.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { auditRecord } from '../../test/fixtures/audit-records.ts'
import { eventSentence } from '../pdf/audit/audit-sentences.ts'
import { EVENT_TYPES } from './event-types.ts'

describe('EVENT_TYPES in the audit trail', () => {
  it('gives every event type (docs/api.md#events) a sentence of its own', () => {
    const record = auditRecord({ signers: 1, eventCount: 1 })
    const [signer] = record.submitters
    const sentences = EVENT_TYPES.map((type) =>
      eventSentence(
        { ...record.events[0]!, type, submitter_id: signer!.id, ip: '192.0.2.4' },
        record.submitters,
        'embed',
      ),
    )
    for (const [i, sentence] of sentences.entries()) {
      assert.doesNotMatch(sentence, /^Event /, `${EVENT_TYPES[i]} falls back to the generic sentence`)
    }
    assert.equal(new Set(sentences).size, EVENT_TYPES.length, 'each type says something different')
    assert.equal(
      sentences[EVENT_TYPES.indexOf('submitter.opened')],
      "Opened by Łukasz Żółć (lukasz.zolc@example.pl) from 192.0.2.4 in the form embedded in the sender's application.",
    )
    const unknown = eventSentence({ ...record.events[0]!, type: 'submitter.future' }, record.submitters)
    assert.match(unknown, /^Event submitter\.future/)
  })
})
