// `form` in docs/signing.md#see-what-you-sign: what a signer sees of the values already entered, on
// the page and in the document as it stands. Pure.
//
// Shown: the signer's own values (prefilled or signed); every value of a signer who is done
// (`signed`, or `pre_signed` at creation); and a value the sender set in a read-only field, which no
// one can change any more. Not shown: an editable value prefilled for a signer who has not signed
// yet — it is a suggestion that signer may still change, not what they agreed to.
import type { SubmittersTable } from '../db/tables.ts'
import type { StoredField } from '../documents/document-model.ts'
import { parseStoredValues, type StoredValues } from '../documents/stored-values.ts'
import { own } from '../lib/own.ts'
import type { ValueToDraw } from '../submissions/pdf-inputs.ts'

export type Holder = Pick<
  SubmittersTable,
  'id' | 'account_id' | 'environment' | 'submission_id' | 'role' | 'status' | 'values' | 'signed_at'
>

/** A value shown to the signer, and whose it is (their own, or another signer's). */
export interface VisibleValue extends ValueToDraw {
  holder: Holder
  mine: boolean
}

const DONE = new Set(['signed', 'pre_signed'])

export function isDone(holder: Pick<SubmittersTable, 'status'>): boolean {
  return DONE.has(holder.status)
}

/** The values `viewer` may see, in field order; `submitters` are all of the submission's. */
export function visibleValues(
  fields: StoredField[],
  viewer: Holder,
  submitters: readonly Holder[],
): VisibleValue[] {
  const holders = new Map<string, { holder: Holder; values: StoredValues }>()
  for (const holder of [...submitters.filter((s) => s.id !== viewer.id), viewer]) {
    holders.set(holder.role, { holder, values: parseStoredValues(holder.values) })
  }
  return fields.flatMap((field) => {
    const entry = holders.get(field.role)
    if (!entry) return []
    const mine = entry.holder.id === viewer.id
    if (!(mine || isDone(entry.holder) || field.readonly)) return []
    const value = own(entry.values, field.name)
    return value === undefined ? [] : [{ field, value, holder: entry.holder, mine }]
  })
}

/**
 * Until when the values shown were entered: the newest signature among the signers shown as done,
 * or the submission's creation when none has signed (only values set at creation are shown).
 */
export function valuesAsOf(visible: readonly VisibleValue[], createdAt: string): string {
  const times = visible.map((v) => (isDone(v.holder) ? v.holder.signed_at : null))
  return times.reduce<string>((latest, at) => (at && at > latest ? at : latest), createdAt)
}
