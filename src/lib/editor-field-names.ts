// The names the console's template editor gives the fields it draws (`nextName` in
// src/console/app/editor/model.ts): the type's word in the member's language, a space and a number —
// "Signature 2", "Texte 1". They name nothing for a signer, who is shown the type's own words
// instead (docs/signing.md#the-page). Recognised only exactly, and only on a field of that very type,
// so a name a sender typed ("Date 1" on a text field, "Signature 1 of 2") is kept as written;
// editor-field-names.test.ts holds this list to the editor's texts in every console language.
import type { FieldType } from './field-types.ts'

export const EDITOR_TYPE_WORDS: Record<FieldType, readonly string[]> = {
  signature: ['Signature'],
  initials: ['Initials', 'Paraphe'],
  date: ['Date'],
  text: ['Text', 'Texte'],
  checkbox: ['Checkbox', 'Case à cocher'],
  number: ['Number', 'Nombre'],
  radio: ['Radio buttons', 'Boutons radio'],
  select: ['Drop-down list', 'Liste déroulante'],
}

/** Whether `name` is the editor's default for a field of `type`: its word, one space, a number from 1. */
export function isEditorDefaultName(name: string, type: FieldType): boolean {
  const match = /^(.+) [1-9][0-9]*$/.exec(name)
  return match !== null && (EDITOR_TYPE_WORDS[type] ?? []).includes(match[1] ?? '')
}
