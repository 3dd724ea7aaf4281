// Values still valid for their schema that get past the first business rules (one PDF source per
// document, roles the seeded templates have, areas on the page), so valid requests reach deeper code.
import fc from 'fast-check'
import { WEBHOOK_EVENT_TYPES } from '../../src/events/event-types.ts'
import { REFUSED_URLS } from './hostile-values.ts'
import type { GenContext } from './schema-arbitrary.ts'

type Field = { type?: string; role?: string; options?: string[]; areas?: unknown[] }

/** A field declaration (it has areas; a submitter's prefilled `fields` entry does not) made acceptable. */
function fieldFix(declared: Field): Field {
  if (!declared.areas) return declared
  const { options, ...field } = declared
  const choice = field.type === 'radio' || field.type === 'select'
  return { ...field, role: field.role ?? 'first', ...(choice && { options: options ?? ['yes', 'no'] }) }
}

const signature = (role: string) => ({
  name: `Sign ${role}`,
  role,
  areas: [{ page: 1, x: 0.1, y: 0.1, w: 0.2, h: 0.05 }],
})

/** Values still valid for their schema that get past the first business rules. */
export function hints(pdf: string): GenContext['hints'] {
  const refused = fc.constantFrom(...REFUSED_URLS)
  const fraction = (max: number) => fc.double({ min: 0.01, max, noNaN: true })
  const area = fc.record({
    page: fc.constant(1),
    x: fraction(0.5),
    y: fraction(0.5),
    w: fraction(0.4),
    h: fraction(0.4),
  })
  type Doc = Record<string, unknown> & { fields?: Field[] }
  return {
    // Exactly one source per document (intake.ts), a real one-page PDF, fields for both roles.
    documents: (own) =>
      own.map((docs) =>
        (docs as Doc[]).map(({ pdf_url, file, pdf_base64, fields = [], ...doc }) => ({
          ...doc,
          pdf_base64: pdf,
          fields: [...fields, signature('first'), signature('second')],
        })),
      ),
    // Declarations: options only on the field types that have them, and the role templates need.
    // Prefilled values (an object): none, as random names match no field of the document.
    fields: (own) => own.map((fields) => (Array.isArray(fields) ? (fields as Field[]).map(fieldFix) : {})),
    areas: () => fc.array(area, { minLength: 1, maxLength: 2 }),
    // Both roles of the seeded templates, one submitter each (docs/api.md#creating-a-submission:
    // each role signs once).
    submitters: (own) =>
      own.map((list) => {
        const [a, b] = list as Array<Record<string, unknown>>
        return [
          { ...a, role: 'first' },
          { ...(b ?? a), role: 'second' },
        ]
      }),
    require_phone_2fa: () => fc.constant(false),
    // No DNS and no network: only URLs the SSRF guard refuses before any lookup.
    file: () => fc.oneof(fc.constant(pdf), refused),
    pdf_url: () => refused,
    // Webhook URLs: refused ones, and a public IP literal accepted without DNS (never called).
    url: () => fc.oneof(refused, fc.constant('https://93.184.216.34/hook')),
    events: () => fc.subarray([...WEBHOOK_EVENT_TYPES], { minLength: 1 }),
  }
}
