// The submitters of a creation request, read into what creation needs: field declarations moved to
// the documents (docs/api.md#documents: the document form is canonical) and values given at
// creation.
import type { FieldDeclaration } from '../documents/field-schemas.ts'
import type { PlacedDeclaration } from '../documents/placement.ts'
import type { SubmitterRequest } from './creation-rules.ts'
import type { InlineSubmitter, PresetValue, TemplateSubmitter } from './creation-schemas.ts'
import type { NewSubmitter } from './record-submission.ts'

function isDeclaration(item: FieldDeclaration | PresetValue): item is FieldDeclaration {
  return 'areas' in item
}

/**
 * Field declarations on submitters go to the document they name by area… which a submitter field
 * cannot name: they land on the first document, the only one most bodies have.
 */
export function submitterDeclarations(submitters: InlineSubmitter[]): PlacedDeclaration[] {
  return submitters.flatMap((s, i) =>
    (s.fields ?? []).flatMap((item, j) =>
      isDeclaration(item)
        ? [{ document: 0, field: item, path: `submitters[${i}].fields[${j}]`, inheritedRole: s.role }]
        : [],
    ),
  )
}

/** Built with Object.fromEntries, which defines each name as an own key (even `__proto__`). */
function inlineValues(s: InlineSubmitter): Record<string, string | number | boolean> {
  return Object.fromEntries(
    (s.fields ?? []).flatMap((item) => (isDeclaration(item) ? [] : [[item.name, item.default_value]])),
  )
}

export function inlineRequests(submitters: InlineSubmitter[]): SubmitterRequest[] {
  return submitters.map((s, i) => {
    const positions = new Map((s.fields ?? []).map((item, j) => [item.name, j]))
    return {
      ...s,
      values: inlineValues(s),
      valuesPath: (name) => `submitters[${i}].fields[${positions.get(name)}]`,
    }
  })
}

export function templateRequests(submitters: TemplateSubmitter[]): SubmitterRequest[] {
  return submitters.map((s, i) => ({
    ...s,
    values: s.fields ?? {},
    valuesPath: (name) => `submitters[${i}].fields.${name}`,
  }))
}

export function toNewSubmitters(
  submitters: Array<InlineSubmitter | TemplateSubmitter>,
  requests: SubmitterRequest[],
): NewSubmitter[] {
  return submitters.map((s, i) => {
    const { fields: _fields, require_phone_2fa: _phone, ...rest } = s
    return { ...rest, values: requests[i]!.values }
  })
}
