// "Verify a PDF" (docs/console.md#verify-a-pdf): a file dropped on the zone or chosen with the file
// input is sent as it is to POST /v1/verify, and the verdict shown in words: valid, with its
// submission, seal time and level; or not, with what that means. The file never leaves for anywhere
// else, and nothing is stored.
import { useState } from 'preact/hooks'
import { call } from '../api.ts'
import { DropZone } from '../drop-zone.tsx'
import { formatDateTime } from '../format.ts'
import type { PageProps } from '../routes.tsx'
import { Link } from '../shell.tsx'
import { fill, type Texts, useTexts } from '../texts.ts'
import type { Verification } from '../types.ts'
import { ErrorNote, PageHeader, useAction } from '../ui.tsx'

const REASONS: Record<NonNullable<Verification['reason']>, (t: Texts) => string> = {
  not_a_pdf: (t) => t.verify_not_a_pdf,
  not_sealed: (t) => t.verify_not_sealed,
  sealed_elsewhere: (t) => t.verify_sealed_elsewhere,
  altered: (t) => t.verify_altered,
}

export function VerifyPdf(_props: PageProps) {
  const { t } = useTexts()
  const [checked, setChecked] = useState<{ name: string; verdict: Verification }>()
  const verify = useAction(async (file: File) => ({
    name: file.name,
    verdict: await call<Verification>('POST', '/v1/verify', file, { contentType: 'application/pdf' }),
  }))
  const take = async (file: File) => {
    setChecked(undefined)
    const done = await verify.run(file)
    if (done) setChecked(done.value)
  }
  return (
    <>
      <PageHeader title={t.verify_title} />
      <p class="muted">{t.verify_intro}</p>
      <section class="panel" aria-labelledby="verify-pick">
        <DropZone
          inputId="verify-file"
          accept="application/pdf,.pdf"
          hint={<p id="verify-pick">{t.verify_drop_hint}</p>}
          choose={verify.busy ? t.verify_checking : t.verify_choose_file}
          busy={verify.busy}
          onFile={take}
        />
        <ErrorNote error={verify.error} />
      </section>
      <div aria-live="polite">{checked ? <Verdict {...checked} /> : null}</div>
    </>
  )
}

function Verdict({ name, verdict }: { name: string; verdict: Verification }) {
  const { t, language } = useTexts()
  const valid = verdict.valid && verdict.submission_id
  return (
    <section
      class={valid ? 'panel verdict verdict-valid' : 'panel verdict verdict-invalid'}
      aria-labelledby="verdict-title"
    >
      <h2 id="verdict-title">{valid ? t.verify_valid : t.verify_invalid}</h2>
      <p class="verdict-file">{name}</p>
      {valid ? (
        <dl class="facts">
          <div>
            <dt>{t.verify_document}</dt>
            <dd>{verdict.document === 'audit_trail' ? t.verify_audit_trail : t.verify_final}</dd>
          </div>
          <div>
            <dt>{t.verify_submission}</dt>
            <dd>
              <Link to={`/submissions/${verdict.submission_id}`}>{verdict.submission_id}</Link>
            </dd>
          </div>
          <div>
            <dt>{t.verify_sealed_at}</dt>
            <dd>{formatDateTime(language, verdict.sealed_at)}</dd>
          </div>
          <div>
            <dt>{t.verify_level}</dt>
            <dd>{t.verify_level_ses}</dd>
          </div>
        </dl>
      ) : (
        <p>{verdict.reason ? REASONS[verdict.reason](t) : verdict.message}</p>
      )}
      <p class="muted small verdict-hash">{fill(t.verify_sha256, { sha256: verdict.sha256 })}</p>
    </section>
  )
}
