// The signing page's languages: English is the reference; French, German and Spanish
// have every one of its texts, none empty, with the same `{placeholders}`, so `fill` never leaves a
// brace nor drops a value in any of them.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { LANGUAGE_NAMES, LANGUAGES, TEXTS, type TextKey } from './page/texts.ts'

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()

describe('the signing page texts', () => {
  it('come in English, French, German and Spanish, each named in its own language', () => {
    assert.deepEqual([...LANGUAGES].sort(), ['de', 'en', 'es', 'fr'])
    assert.deepEqual(LANGUAGE_NAMES, { en: 'English', fr: 'Français', de: 'Deutsch', es: 'Español' })
  })

  for (const lang of LANGUAGES) {
    it(`${lang}: every text of English, none empty, the same placeholders`, () => {
      const texts = TEXTS[lang] as Record<string, string>
      assert.deepEqual(Object.keys(texts).sort(), Object.keys(TEXTS.en).sort())
      for (const key of Object.keys(TEXTS.en) as TextKey[]) {
        assert.ok(texts[key]?.trim(), `${lang}.${key} is empty`)
        assert.deepEqual(placeholders(texts[key]!), placeholders(TEXTS.en[key]), `${lang}.${key}`)
      }
    })
  }

  it('are translated, not copied: the Sign button differs in every language', () => {
    const signs = LANGUAGES.map((lang) => TEXTS[lang].sign)
    assert.equal(new Set(signs).size, LANGUAGES.length, signs.join(', '))
  })
})
