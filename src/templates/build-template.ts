// Documents in, template record out: intake (download, inspect, store) then field placement.
// Shared by POST /v1/templates and the internal template behind POST /v1/submissions/from_pdf.
import type { Scope } from '../db/tables.ts'
import type { Deps } from '../deps.ts'
import type { DocumentInput } from '../documents/field-schemas.ts'
import { intakeDocuments } from '../documents/intake.ts'
import { type PlacedDeclaration, placeFields } from '../documents/placement.ts'
import { toIso } from '../lib/clock.ts'
import type { TemplateRecord } from './template-store.ts'

export interface TemplateDraft {
  name: string
  slug?: string | null
  external_id?: string | null
  metadata?: Record<string, string | number | boolean | null>
  internal: boolean
}

/** Every field declared on the documents, in body order. */
export function documentDeclarations(documents: DocumentInput[]): PlacedDeclaration[] {
  return documents.flatMap((doc, document) =>
    (doc.fields ?? []).map((field, i) => ({ document, field, path: `documents[${document}].fields[${i}]` })),
  )
}

/**
 * Stores the documents and places the fields. Nothing is written to the database here (the caller
 * does, in its transaction); on a placement error the stored PDFs are removed again.
 */
export async function buildTemplate(
  deps: Deps,
  scope: Scope,
  draft: TemplateDraft,
  documents: DocumentInput[],
  declarations: PlacedDeclaration[],
): Promise<TemplateRecord> {
  const id = deps.ids.next('tpl')
  const stored = await intakeDocuments(
    documents,
    (i) => `${scope.accountId}/${scope.environment}/templates/${id}/${i}.pdf`,
    deps,
  )
  let fields: TemplateRecord['fields']
  try {
    fields = placeFields(
      declarations,
      stored.map((d) => d.pages),
    )
  } catch (error) {
    await Promise.allSettled(stored.map((d) => deps.blobs.delete(d.blob_key)))
    throw error
  }
  const at = toIso(deps.clock.now())
  return {
    id,
    account_id: scope.accountId,
    environment: scope.environment,
    name: draft.name,
    slug: draft.slug ?? null,
    external_id: draft.external_id ?? null,
    metadata: draft.metadata ?? {},
    status: draft.internal ? 'archived' : 'active',
    created_via: 'api',
    internal: draft.internal ? 1 : 0,
    documents: stored,
    fields,
    created_at: at,
    updated_at: at,
    archived_at: draft.internal ? at : null,
  }
}
