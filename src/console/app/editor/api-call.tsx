// Beside the form: the same template made with the public API, and a submission sent from it,
// ready to copy (the PDF left as a placeholder).
import { useTexts } from '../texts.ts'
import { CopyButton } from '../ui.tsx'
import { type EditorField, toDeclarations } from './model.ts'

export function ApiCall(props: { name: string; slug: string; fields: EditorField[]; roles: string[] }) {
  const { t } = useTexts()
  const template = JSON.stringify(
    {
      name: props.name || 'Untitled',
      ...(props.slug ? { slug: props.slug } : {}),
      documents: [
        {
          name: props.name || 'Untitled',
          pdf_base64: '<the PDF, base64>',
          fields: toDeclarations(props.fields),
        },
      ],
    },
    null,
    2,
  )
  const submission = JSON.stringify(
    {
      template_id: props.slug ? `<tpl_… of “${props.slug}”>` : 'tpl_…',
      submitters: props.roles.map((role, i) => ({ role, email: `signer${i + 1}@example.com` })),
    },
    null,
    2,
  )
  return (
    <details class="panel editor-api">
      <summary>{t.editor_api_title}</summary>
      <h3>POST /v1/templates</h3>
      <div class="code-block">
        <pre>
          <code>{template}</code>
        </pre>
        <CopyButton text={template} />
      </div>
      <h3>POST /v1/submissions</h3>
      <div class="code-block">
        <pre>
          <code>{submission}</code>
        </pre>
        <CopyButton text={submission} />
      </div>
    </details>
  )
}
