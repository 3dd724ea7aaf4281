// After an HTML or Word upload: what the document's {{…}} tags became (issue #14's tag report),
// each field with its type, role and pages, or a warning when no tag was found. A notice above the
// pages, closed once read; the fields themselves are on the pages, editable like drawn ones.
import { useState } from 'preact/hooks'
import { useTexts } from '../texts.ts'
import type { ReportedField } from './model.ts'

export function TagReport({ report }: { report: ReportedField[] }) {
  const { t } = useTexts()
  const [open, setOpen] = useState(true)
  if (!open) return null
  const count = report.length === 1 ? t.editor_tags_found_one : t.editor_tags_found
  return (
    <section class="panel notice editor-tag-report" aria-labelledby="tag-report-title">
      <div class="editor-tag-report-head">
        <h2 id="tag-report-title">
          {report.length === 0 ? t.editor_tags_title : count.replace('{n}', String(report.length))}
        </h2>
        <button type="button" class="button small" onClick={() => setOpen(false)}>
          {t.editor_tags_dismiss}
        </button>
      </div>
      {report.length === 0 ? (
        <p class="editor-tag-warning">{t.editor_tags_none}</p>
      ) : (
        <>
          <p class="muted small">{t.editor_tags_hint}</p>
          <ul class="editor-tag-list">
            {report.map((field) => {
              const pages = [...new Set(field.areas.map((a) => a.page))]
              return (
                <li key={field.name}>
                  <strong>{field.name}</strong>{' '}
                  {t.editor_tag_line
                    .replace('{type}', t[`type_${field.type}`])
                    .replace('{role}', field.role)
                    .replace(
                      '{pages}',
                      (pages.length === 1 ? t.editor_tag_page : t.editor_tag_pages).replace(
                        '{n}',
                        pages.join(', '),
                      ),
                    )}
                </li>
              )
            })}
          </ul>
        </>
      )}
    </section>
  )
}
