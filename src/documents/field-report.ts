// Where each field of a submission's documents is, as a client reads it (the tag
// report, beyond the contract): name, type, role and every area with its page, in points from the
// page's top-left corner and in fractions of the page. The creation answer of from_html and
// from_docx carries it, so a client sees where each tag landed without opening the PDF, and
// GET /v1/submissions/{id} carries it for every submission.
import { type Static, Type } from 'typebox'
import { Nullable, StringEnum } from '../http/common-schemas.ts'
import { FIELD_TYPES } from '../lib/field-types.ts'
import type { StoredDocument, StoredField } from './document-model.ts'

const Box = {
  x: Type.Number(),
  y: Type.Number(),
  w: Type.Number(),
  h: Type.Number(),
}

export const ReportedArea = Type.Object(
  {
    document: Type.Integer({ description: 'Index of the document in the submission (0 for HTML and DOCX)' }),
    page: Type.Integer({ description: '1-indexed' }),
    ...Box,
    fractions: Type.Object(Box, {
      description: 'The same box as fractions of the page width and height',
    }),
  },
  {
    title: 'ReportedArea',
    description: 'x, y, w, h in points (1/72 in) from the top-left corner of the page, y downward',
  },
)

export const ReportedField = Type.Object(
  {
    name: Type.String(),
    type: StringEnum(FIELD_TYPES),
    role: Type.String(),
    required: Type.Boolean(),
    readonly: Type.Boolean(),
    options: Nullable(Type.Array(Type.String())),
    areas: Type.Array(ReportedArea),
  },
  { title: 'ReportedField' },
)
export type ReportedField = Static<typeof ReportedField>

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits

export function reportFields(
  fields: StoredField[],
  documents: Pick<StoredDocument, 'pages'>[],
): ReportedField[] {
  return fields.map((f) => ({
    name: f.name,
    type: f.type,
    role: f.role,
    required: f.required,
    readonly: f.readonly,
    options: f.options,
    areas: f.areas.map((a) => {
      const page = documents[a.document]?.pages[a.page - 1] ?? { width: 0, height: 0 }
      return {
        document: a.document,
        page: a.page,
        x: round(a.x * page.width, 2),
        y: round(a.y * page.height, 2),
        w: round(a.w * page.width, 2),
        h: round(a.h * page.height, 2),
        fractions: { x: round(a.x, 6), y: round(a.y, 6), w: round(a.w, 6), h: round(a.h, 6) },
      }
    }),
  }))
}
