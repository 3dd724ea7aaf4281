// The shape of GET …/form (src/signing-page/signing-form.ts), as the page reads it.
export type FieldType =
  | 'signature'
  | 'initials'
  | 'date'
  | 'text'
  | 'number'
  | 'checkbox'
  | 'radio'
  | 'select'
export type Value = string | number | boolean

export interface Area {
  document: number
  page: number
  x: number
  y: number
  w: number
  h: number
}

export interface Field {
  name: string
  type: FieldType
  role: string
  required: boolean
  readonly: boolean
  areas: Area[]
  options: string[] | null
  value: Value | null
}

export type State =
  | 'ready'
  | 'email_2fa_required'
  | 'waiting_for_others'
  | 'signed'
  | 'declined'
  | 'completed'
  | 'expired'
  | 'cancelled'
  /** docs/api.md#signer-groups: another member of this signer's group signed for the role. */
  | 'signed_by_other'

export interface SigningForm {
  submitter: { id: string; email: string; name: string | null; role: string; status: string }
  submission: {
    id: string
    status: string
    expires_at: string | null
    /** What the signing request calls the document; optional: a server that predates it sends none. */
    name?: string | null
    /** A copy made by the console editor's preview as a signer: sends nothing; absent from older servers. */
    preview?: boolean
    /** The sender's message, variables unfilled; shown as text, never HTML. */
    message?: { subject: string | null; body: string | null } | null
  }
  state: State
  documents: Array<{ name: string; pdf_url: string; pages: Array<{ width: number; height: number }> }>
  fields: Field[]
  redirect_url: string | null
  consent_text: string
  signed_pdf_url: string | null
  /**
   * The document with the values so far, offered before signing and as the signer's copy
   * after. Optional: a server that predates it sends nothing, and the page offers nothing.
   */
  current_pdf_url?: string | null
  /** What this signer saved without signing yet (docs/api.md#saving-progress); absent from older servers. */
  progress?: { values: Record<string, Value>; saved_at: string } | null
  /** For `signed_by_other`: who of the group signed, and when; absent from older servers. */
  signed_by?: { name: string; signed_at: string } | null
  session?: string
}

/** Fields this signer fills, in reading order: document, page, then top to bottom, left to right. */
export function fieldsToFill(form: SigningForm): Field[] {
  const first = (f: Field) => f.areas[0] ?? { document: 0, page: 1, x: 0, y: 0, w: 0, h: 0 }
  return form.fields
    .filter((f) => f.role === form.submitter.role && !f.readonly)
    .sort((a, b) => {
      const p = first(a)
      const q = first(b)
      return p.document - q.document || p.page - q.page || p.y - q.y || p.x - q.x
    })
}

export function isFilled(field: Field, value: Value | undefined): boolean {
  if (value === undefined || value === '') return false
  if (field.type === 'checkbox') return value === true
  return true
}

/**
 * Fields shown read-only with their value (docs/signing.md#see-what-you-sign): filled by another
 * signer, pre-signed, or set by the sender on a read-only field of this signer.
 */
export function filledByOthers(form: SigningForm): Field[] {
  return form.fields.filter(
    (f) =>
      f.value !== null &&
      f.value !== '' &&
      f.value !== false &&
      (f.role !== form.submitter.role || f.readonly),
  )
}

/** The name the signing request gave the document (the submission's), else the documents' names. */
export function titleOf(form: SigningForm): string {
  return form.submission.name || form.documents.map((d) => d.name).join(', ')
}
