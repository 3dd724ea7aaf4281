// /templates/new — loaded lazily: part 2 puts the template editor here. Until then, how to make a
// template with the API, with an example to copy.
import type { PageProps } from '../pages.tsx'
import { Link } from '../shell.tsx'
import { useTexts } from '../texts.ts'
import { CopyButton, PageHeader } from '../ui.tsx'

const EXAMPLE = `curl ${location.origin}/v1/templates \\
  -H "Authorization: Bearer sk_test_…" \\
  -H "Idempotency-Key: $(uuidgen)" \\
  -H "Content-Type: application/json" \\
  -d '{
    "name": "Employment contract",
    "slug": "employment-contract",
    "documents": [{
      "name": "contract.pdf",
      "pdf_base64": "<the PDF, base64>",
      "fields": [{
        "name": "Signature", "type": "signature", "role": "Employee",
        "areas": [{ "page": 1, "x": 0.1, "y": 0.8, "w": 0.3, "h": 0.06 }]
      }]
    }]
  }'`

export function TemplateNew(_props: PageProps) {
  const { t } = useTexts()
  return (
    <>
      <PageHeader title={t.new_template} />
      <section class="panel notice" aria-labelledby="editor-soon">
        <h2 id="editor-soon">{t.editor_soon_title}</h2>
        <p>{t.editor_soon_body}</p>
        <div class="code-block">
          <pre>
            <code>{EXAMPLE}</code>
          </pre>
          <CopyButton text={EXAMPLE} label={t.copy_example} />
        </div>
        <p>
          {t.editor_soon_keys} <Link to="/developers/keys">{t.nav_keys}</Link> ·{' '}
          <a href="/openapi.yaml">{t.openapi}</a>
        </p>
      </section>
      <p>
        <Link to="/templates">← {t.back_to_templates}</Link>
      </p>
    </>
  )
}
