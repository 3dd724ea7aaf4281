// Templates: the list with its status filter, archiving (DELETE /v1/templates/:id), sending one
// (/templates/:id/send) or sending it to many (/templates/:id/send-many), duplicating one into the
// editor, and the way to the editor (/templates/new).
// A template never changes once saved (docs/console.md#what-the-pages-say-issue-33s-usability-run): the list says so, and its name
// is named for what it does — "Send Lease agreement".
import { useState } from 'preact/hooks'
import { call, query } from '../api.ts'
import { formatDateTime } from '../format.ts'
import { IdText } from '../id-text.tsx'
import { BASE, onLinkClick } from '../router.ts'
import type { PageProps } from '../routes.tsx'
import { Link } from '../shell.tsx'
import { fill, useTexts } from '../texts.ts'
import type { Template } from '../types.ts'
import {
  Badge,
  Confirm,
  Empty,
  ErrorNote,
  Loading,
  LoadMore,
  PageHeader,
  usePaged,
  useToast,
} from '../ui.tsx'

export function Templates(_props: PageProps) {
  const { t, language } = useTexts()
  const toast = useToast()
  const [status, setStatus] = useState<'active' | 'archived'>('active')
  const list = usePaged<Template>(`/v1/templates${query({ status, limit: 25 })}`)
  const [archiving, setArchiving] = useState<Template>()
  return (
    <>
      <PageHeader title={t.nav_templates}>
        <Link to="/templates/new" class="button primary">
          {t.new_template}
        </Link>
      </PageHeader>
      <p class="muted page-note">{t.templates_immutable}</p>
      <div class="filters">
        <label class="inline-label" for="template-status">
          {t.status}
        </label>
        <select
          id="template-status"
          value={status}
          onChange={(e) => setStatus(e.currentTarget.value as 'active')}
        >
          <option value="active">{t.status_active}</option>
          <option value="archived">{t.status_archived}</option>
        </select>
      </div>
      <ErrorNote error={list.error} />
      {list.loading && !list.data ? <Loading /> : null}
      {list.data && list.data.length === 0 ? (
        <Empty title={status === 'active' ? t.templates_empty : t.templates_archived_empty}>
          {status === 'active' ? (
            <p>
              {t.templates_empty_hint} <Link to="/templates/new">{t.templates_empty_link}</Link>
            </p>
          ) : null}
        </Empty>
      ) : null}
      {list.data && list.data.length > 0 ? (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">{t.nav_templates}</caption>
            <thead>
              <tr>
                <th scope="col">{t.name}</th>
                <th scope="col">{t.slug}</th>
                <th scope="col">{t.created_via}</th>
                <th scope="col">{t.documents}</th>
                <th scope="col">{t.created}</th>
                <th scope="col">
                  <span class="visually-hidden">{t.actions}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((template) => (
                <tr key={template.id}>
                  <td data-label={t.name}>
                    {/* The name leads where a person goes next, and says so: sending it (an archived one sends nothing). */}
                    {template.status === 'active' ? (
                      <Link
                        to={`/templates/${template.id}/send`}
                        class="row-name"
                        label={fill(t.send_named, { name: template.name })}
                      >
                        {template.name}
                      </Link>
                    ) : (
                      <span class="row-name">{template.name}</span>
                    )}
                    <IdText id={template.id} />
                  </td>
                  <td data-label={t.slug}>
                    {template.slug ? <code>{template.slug}</code> : <span class="muted">—</span>}
                  </td>
                  <td data-label={t.created_via}>
                    <Badge tone={template.created_via === 'ui' ? 'info' : 'neutral'}>
                      {template.created_via === 'ui' ? t.via_ui : t.via_api}
                    </Badge>
                  </td>
                  <td data-label={t.documents}>
                    {template.documents.map((d) => (
                      <span key={d.name} class="doc-name">
                        {d.name} <span class="muted">({fill(t.pages_count, { n: d.page_count })})</span>
                      </span>
                    ))}
                  </td>
                  <td data-label={t.created}>{formatDateTime(language, template.created_at)}</td>
                  <td class="actions">
                    {/* Link takes no aria-label; this one's name says which template it copies. */}
                    <a
                      href={`${BASE}/templates/new?from=${template.id}`}
                      class="button small"
                      aria-label={fill(t.editor_duplicate_label, { name: template.name })}
                      onClick={(e) => onLinkClick(e, `/templates/new?from=${template.id}`)}
                    >
                      {t.editor_duplicate}
                    </a>{' '}
                    {template.status === 'active' ? (
                      <Link to={`/templates/${template.id}/send`} class="button small primary">
                        {t.send}
                        <span class="visually-hidden"> {fill(t.send_quoted, { name: template.name })}</span>
                      </Link>
                    ) : null}{' '}
                    {template.status === 'active' ? (
                      <Link to={`/templates/${template.id}/send-many`} class="button small">
                        {t.bulk_send}
                        <span class="visually-hidden">
                          {' '}
                          {fill(t.bulk_send_quoted, { name: template.name })}
                        </span>
                      </Link>
                    ) : null}
                    {template.status === 'active' ? (
                      <button
                        type="button"
                        class="button small"
                        aria-label={`${t.archive} ${template.name}`}
                        onClick={() => setArchiving(template)}
                      >
                        {t.archive}
                      </button>
                    ) : (
                      <Badge tone="neutral">{t.status_archived}</Badge>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <LoadMore paged={list} />
      {archiving ? (
        <Confirm
          title={t.archive_template_title}
          body={<p>{fill(t.archive_template_body, { name: archiving.name })}</p>}
          confirm={t.archive}
          danger
          onClose={() => setArchiving(undefined)}
          onConfirm={async () => {
            await call('DELETE', `/v1/templates/${archiving.id}`)
            toast(fill(t.archived_toast, { name: archiving.name }))
            list.reload()
            return true
          }}
        />
      ) : null}
    </>
  )
}
