import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { escapeHtml } from './layout.ts'
import {
  fillVariables,
  MAIL_VARIABLES,
  unknownVariables,
  variableList,
  variablesDescription,
} from './variables.ts'

const VALUES: Record<string, string> = {
  'submitter.name': 'Ann <Admin>',
  'submitter.email': 'ann@example.eu',
  'document.name': 'NDA & Co',
}
const value = (name: string) => VALUES[name] ?? `[${name}]`

describe('mail variables', () => {
  it('finds every {{…}} that names no variable, as written, spaces inside the braces allowed', () => {
    assert.deepEqual(unknownVariables('Hi {{ submitter.name }}, {{submitter.email}}'), [])
    assert.deepEqual(unknownVariables('Hi {{submiter.name}} {{}} {{ Submitter.Name }} {{a}}'), [
      '{{submiter.name}}',
      '{{}}',
      '{{ Submitter.Name }}',
      '{{a}}',
    ])
    assert.deepEqual(unknownVariables('braces { alone } and {{ unclosed'), [])
  })

  it('fills each variable and passes only the text between them through the literal function', () => {
    const text = fillVariables('Hi {{submitter.name}} — {{ document.name }}!', value)
    assert.equal(text, 'Hi Ann <Admin> — NDA & Co!')
    const html = fillVariables(
      '<b>{{submitter.name}}</b> & {{document.name}}',
      (name) => escapeHtml(value(name)),
      escapeHtml,
    )
    assert.equal(html, '&lt;b&gt;Ann &lt;Admin&gt;&lt;/b&gt; &amp; NDA &amp; Co')
  })

  it('keeps an unknown {{…}} as written (escaped like text), and fills one repeated', () => {
    assert.equal(
      fillVariables('{{x}} {{submitter.email}} {{submitter.email}}', value, escapeHtml),
      '{{x}} ann@example.eu ann@example.eu',
    )
    assert.equal(fillVariables('<{{nope}}>', value, escapeHtml), '&lt;{{nope}}&gt;')
  })

  it('documents every variable', () => {
    for (const name of Object.keys(MAIL_VARIABLES)) {
      assert.ok(variableList().includes(`{{${name}}}`))
      assert.ok(variablesDescription().includes(`\`{{${name}}}\``))
    }
  })
})
