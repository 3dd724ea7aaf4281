// What a signer has done on the form so far, kept apart from the screen so that the screen can be
// drawn again (the language picker) without losing a value, the adopted signature, the
// current field or the panel's state. It starts from the form and the progress saved before.
import { type Field, fieldsToFill, isFilled, type SigningForm, type Value } from './form.ts'
import type { MadeSignature } from './signature-dialog.ts'

export type ImageKind = 'signature' | 'initials'

export interface Draft {
  values: Map<string, Value>
  /** Index of the field being filled, in `fieldsToFill` order. */
  current: number
  /** Made once per kind, then reused for every field of that kind. */
  adopted: Partial<Record<ImageKind, MadeSignature>>
  /** On narrow screens, whether the panel shows the consent and Sign (else only the field). */
  expanded: boolean
  /** Set by a Sign with fields missing: the error then follows the fields as they are filled. */
  showMissing: boolean
  /** Until the form is first drawn: bring the current field (or Sign) into view, where work resumes. */
  resume: boolean
}

export const isImageField = (field: Field): field is Field & { type: ImageKind } =>
  field.type === 'signature' || field.type === 'initials'

export function newDraft(form: SigningForm): Draft {
  const values = new Map<string, Value>()
  const fields = fieldsToFill(form)
  for (const field of fields) {
    // An image value read back from the server is a URL, which …/sign would refuse: only data URLs count.
    if (field.value === null || (isImageField(field) && !String(field.value).startsWith('data:'))) continue
    values.set(field.name, field.value)
  }
  const adopted: Draft['adopted'] = {}
  restoreProgress(form, fields, values, adopted)
  // Work resumes at the first required field still empty; with none left, at Sign (the panel open
  // after the last field), so a reload never sends the signer back to field 1.
  const empty = fields.findIndex((f) => f.required && !isFilled(f, values.get(f.name)))
  const expanded = empty === -1
  const current = expanded ? Math.max(0, fields.length - 1) : empty
  return { values, current, adopted, expanded, showMissing: false, resume: form.progress != null }
}

/**
 * What the signer saved on an earlier visit (docs/api.md#saving-progress) laid over the form's
 * values: their fields only. A saved signature or initials is adopted again, to reuse on the others.
 */
function restoreProgress(
  form: SigningForm,
  fields: Field[],
  values: Draft['values'],
  adopted: Draft['adopted'],
): void {
  const saved = form.progress?.values
  if (!saved) return
  for (const field of fields) {
    if (!Object.hasOwn(saved, field.name)) continue
    const value = saved[field.name] as Value
    values.set(field.name, value)
    if (isImageField(field) && typeof value === 'string' && !adopted[field.type]) {
      adopted[field.type] = { png: value, mode: 'draw', typed: null }
    }
  }
}
