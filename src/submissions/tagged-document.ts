// A submission from a tagged HTML document (from_html; from_docx once its DOCX became HTML):
// the tags are found and replaced by marker boxes (render/html-tags.ts), Chromium prints the
// document and reports each marker's box (render/chromium-renderer.ts), and the PDF with the
// fields placed on those boxes then goes the way of from_pdf: an internal archived template and
// the submission pointing to it, in one transaction. The answer adds the tag report: each field
// with the page and box where its tags landed. The tags → fields step (renderTaggedDocument) is
// also the console's: a template draft from HTML or DOCX (console/drafts/create-template-draft.ts).
// Order of the checks, cheapest first: the options and submitters, the tags and their roles (no
// rendering for a document that would be refused anyway), then the rendering.
import type { Scope, Tx } from '../db/tables.ts'
import type { Deps } from '../deps.ts'
import { type ReportedField, reportFields } from '../documents/field-report.ts'
import type { DocumentInput, FieldDeclaration } from '../documents/field-schemas.ts'
import { fieldError } from '../errors.ts'
import { randomBase62 } from '../lib/ids.ts'
import { LIMITS } from '../limits.ts'
import { checkDeliverable } from '../mail/address-delivery.ts'
import { type FieldMark, PAGE_SIZES, type PageFormat } from '../render/field-marks.ts'
import { findTags } from '../render/html-tagger.ts'
import type { FoundTag, TagSource } from '../render/html-tags.ts'
import { buildTemplate, documentDeclarations } from '../templates/build-template.ts'
import { insertTemplate } from '../templates/template-store.ts'
import {
  checkCommonOptions,
  checkSubmitterFlags,
  checkSubmittersAgainstFields,
  creationAddresses,
} from './creation-rules.ts'
import type { CommonOptions, CreatedSubmission, InlineSubmitter } from './creation-schemas.ts'
import { recordNewSubmission } from './record-submission.ts'
import { rendering } from './render-errors.ts'
import { inlineRequests, toNewSubmitters } from './submitter-input.ts'

export interface TagInput {
  html: string
  size: PageFormat
  source: TagSource
}

export interface TaggedDocument extends TagInput {
  name: string
  submitters: InlineSubmitter[]
  options: CommonOptions
}

const MARK_HOST = 'https://fields.paraph.invalid/'

const quote = (values: string[]) => values.map((v) => `"${v}"`).join(', ')

/** The tags with their roles resolved: an omitted role is the first submitter's. */
function resolveRoles(tags: FoundTag[], submitters: InlineSubmitter[], path: string): FoundTag[] {
  const roles = submitters.map((s) => s.role)
  const first = roles[0]!
  return tags.map((tag) => {
    const role = tag.spec.role ?? first
    if (!roles.includes(role))
      throw fieldError(
        'submitter_role_not_in_template',
        path,
        `the tag "${tag.text}" (${tag.where}) is for role "${role}", which no submitter has (submitters' roles: ${quote(roles)}).`,
      )
    return { ...tag, spec: { ...tag.spec, role } }
  })
}

/** Tags of one name are one field: they must agree on all but their size. */
function groupByName(tags: FoundTag[], path: string): FoundTag[][] {
  const groups = new Map<string, FoundTag[]>()
  for (const tag of tags) {
    const group = groups.get(tag.spec.name)
    if (!group) {
      groups.set(tag.spec.name, [tag])
      continue
    }
    const a = group[0]!.spec
    const b = tag.spec
    const differs = (['role', 'type', 'required', 'readonly'] as const).find((k) => a[k] !== b[k])
    const optionsDiffer = JSON.stringify(a.options) !== JSON.stringify(b.options)
    if (differs || optionsDiffer)
      throw fieldError(
        'invalid_template_tag',
        path,
        `the tag "${tag.text}" (${tag.where}) repeats the field "${b.name}" of "${group[0]!.text}" with another ${differs ?? 'options'}; tags of one name are one field and must agree.`,
      )
    group.push(tag)
  }
  return [...groups.values()]
}

/** The field declarations of the rendered document, areas as fractions of its pages. */
function declarations(groups: FoundTag[][], marks: FieldMark[], size: PageFormat, path: string) {
  const page = PAGE_SIZES[size]
  if (marks.length > LIMITS.tagsPerDocument)
    throw fieldError(
      'invalid_template_tag',
      path,
      `the tags are printed ${marks.length} times (a tag in a table header or a fixed element repeats on every page); a document takes at most ${LIMITS.tagsPerDocument} field areas.`,
    )
  // A tag's box printed on several pages (in a repeated table header, a fixed element) is an
  // area on each of them.
  const byIndex = new Map<number, FieldMark[]>()
  for (const m of marks) {
    const printed = byIndex.get(m.index)
    if (printed) printed.push(m)
    else byIndex.set(m.index, [m])
  }
  return groups.map((group): FieldDeclaration => {
    const spec = group[0]!.spec
    const areas = group.flatMap((tag) => {
      const printed = (byIndex.get(tag.index) ?? []).filter((m) => m.w > 0 && m.h > 0)
      if (printed.length === 0)
        throw fieldError(
          'invalid_template_tag',
          path,
          `the tag "${tag.text}" (${tag.where}) does not appear on the rendered pages (hidden by the document's CSS, or in an element with no box).`,
        )
      return printed.map((mark) => {
        // Chromium rounds to its pixel grid: a box overhanging the page by a hair is brought in.
        const x = Math.max(0, mark.x)
        const y = Math.max(0, mark.y)
        const w = Math.min(mark.w, page.width - x)
        const h = Math.min(mark.h, page.height - y)
        if (w < mark.w - 2 || h < mark.h - 2)
          throw fieldError(
            'invalid_template_tag',
            path,
            `the field of the tag "${tag.text}" (${tag.where}) is ${tag.spec.width}×${tag.spec.height} pt and does not fit on the page there; give it a smaller width= or height=.`,
          )
        // As fractions: in points, a 1×1 pt tag in the page's corner would read as a whole page
        // (placement tells the units apart by whether any value is above 1).
        return {
          page: mark.page,
          x: x / page.width,
          y: y / page.height,
          w: w / page.width,
          h: h / page.height,
        }
      })
    })
    return {
      name: spec.name,
      type: spec.type,
      role: spec.role!,
      required: spec.required,
      readonly: spec.readonly,
      ...(spec.options ? { options: spec.options } : {}),
      areas,
    }
  })
}

/** The refusals that need no document: run before a DOCX is converted or any HTML rendered. */
export async function checkTaggedRequest(
  deps: Pick<Deps, 'clock' | 'mailer'>,
  input: Pick<TaggedDocument, 'options' | 'submitters'>,
): Promise<void> {
  checkCommonOptions(input.options, deps.clock.now())
  checkSubmitterFlags(input.submitters)
  await checkDeliverable(deps.mailer, creationAddresses(input.options, input.submitters))
  for (const [i, s] of input.submitters.entries()) {
    const j = (s.fields ?? []).findIndex((f) => 'areas' in f)
    if (j >= 0)
      throw fieldError(
        'invalid_request',
        `submitters[${i}].fields[${j}]`,
        `the fields of an HTML or DOCX document are its {{…}} tags; a submitter's fields here are values ({ name, default_value }).`,
      )
  }
}

/**
 * The tags → fields step of every tagged document (from_html, from_docx, the console's drafts):
 * the tags found, their roles settled by `settleRoles` (which may refuse, before anything is
 * rendered), grouped by name, the document printed and each field placed where its tags landed.
 */
export async function renderTaggedDocument(
  deps: Pick<Deps, 'renderer'>,
  scope: Scope,
  input: TagInput,
  settleRoles: (tags: FoundTag[]) => FoundTag[],
): Promise<{ pdf: Uint8Array; fields: FieldDeclaration[] }> {
  const path = input.source.path
  const prefix = `${MARK_HOST}${randomBase62(20)}/`
  const found = await rendering(findTags(input.html, prefix, input.source, { account: scope.accountId }))
  const groups = groupByName(settleRoles(found.tags), path)
  // Chromium's slots are shared fairly between accounts.
  const rendered = await rendering(
    deps.renderer.render(found.html, input.size, prefix, { account: scope.accountId }),
  )
  return { pdf: rendered.pdf, fields: declarations(groups, rendered.marks, input.size, path) }
}

/** A submission's roles: a tag without one is the first submitter's; every submitter needs a tag. */
function submittersRoles(submitters: InlineSubmitter[], path: string) {
  return (tags: FoundTag[]): FoundTag[] => {
    if (tags.length === 0)
      throw fieldError(
        'no_tags_found',
        path,
        `no {{…}} tag found; mark where each party signs, e.g. {{Signature;role=${submitters[0]!.role}}}.`,
      )
    const resolved = resolveRoles(tags, submitters, path)
    const roles = new Set(resolved.map((tag) => tag.spec.role!))
    const unplaced = submitters.findIndex((s) => !roles.has(s.role))
    if (unplaced >= 0)
      throw fieldError(
        'submitter_role_not_in_template',
        `submitters[${unplaced}].role`,
        `no tag of the document is for role "${submitters[unplaced]!.role}" (roles of the tags: ${quote([...roles])}).`,
      )
    return resolved
  }
}

/** Creates the submission; the answer of docs/api.md#creating-a-submission plus `fields`, the tag report. */
export async function createFromTaggedHtml(
  deps: Deps,
  scope: Scope,
  transaction: <T extends CreatedSubmission & { fields: ReportedField[] }>(
    work: (tx: Tx) => Promise<T>,
  ) => Promise<T>,
  input: TaggedDocument,
): Promise<CreatedSubmission & { fields: ReportedField[] }> {
  await checkTaggedRequest(deps, input)
  const rendered = await renderTaggedDocument(
    deps,
    scope,
    input,
    submittersRoles(input.submitters, input.source.path),
  )
  const documents: DocumentInput[] = [
    {
      name: input.name,
      pdf_base64: Buffer.from(rendered.pdf).toString('base64'),
      fields: rendered.fields,
    },
  ]
  const template = await buildTemplate(
    deps,
    scope,
    { name: input.name, internal: true },
    documents,
    documentDeclarations(documents),
  )
  try {
    const requests = inlineRequests(input.submitters)
    checkSubmittersAgainstFields(requests, template.fields)
    return await transaction(async (tx) => {
      await insertTemplate(tx, template)
      const created = await recordNewSubmission(tx, deps, scope, {
        templateId: template.id,
        options: input.options,
        submitters: toNewSubmitters(input.submitters, requests),
      })
      return { ...created, fields: reportFields(template.fields, template.documents) }
    })
  } catch (error) {
    await Promise.allSettled(template.documents.map((d) => deps.blobs.delete(d.blob_key)))
    throw error
  }
}
