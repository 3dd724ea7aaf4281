// How far a submission's signers are: "1 of 2 signed" and one badge per signer, named (or their
// e-mail) with their role; signerName() is how every page names a signer.
import { fill, type Texts, useTexts } from '../texts.ts'
import type { Submitter } from '../types.ts'
import { Badge } from '../ui.tsx'

const SIGNER_TONES: Record<Submitter['status'], string> = {
  pending: 'neutral',
  opened: 'info',
  signed: 'success',
  pre_signed: 'success',
  declined: 'danger',
}

export const SUBMISSION_TONES: Record<string, string> = {
  created: 'neutral',
  sent: 'info',
  viewed: 'info',
  partially_signed: 'warning',
  completed: 'success',
  declined: 'danger',
  expired: 'neutral',
  cancelled: 'neutral',
}

export const signerStatus = (t: Texts, status: Submitter['status']) => t[`signer_${status}`]
export const submissionStatus = (t: Texts, status: string) =>
  (t as unknown as Record<string, string>)[`submission_${status}`] ?? status

/** A signer as a person reads them: their name, else their e-mail. */
export const signerName = (signer: Pick<Submitter, 'name' | 'email'>) => signer.name ?? signer.email

export function SignerBadge({ status }: { status: Submitter['status'] }) {
  const { t } = useTexts()
  return <Badge tone={SIGNER_TONES[status]}>{signerStatus(t, status)}</Badge>
}

export function SignersProgress({ submitters }: { submitters: Submitter[] }) {
  const { t } = useTexts()
  const signed = submitters.filter((s) => s.status === 'signed' || s.status === 'pre_signed').length
  return (
    <div class="signers">
      <span class="progress-text">{fill(t.signed_of, { n: signed, total: submitters.length })}</span>
      <ul class="signer-list">
        {submitters.map((s) => (
          <li key={s.id}>
            <span class="signer-name">{signerName(s)}</span> <span class="signer-role">({s.role})</span>{' '}
            <SignerBadge status={s.status} />
          </li>
        ))}
      </ul>
    </div>
  )
}
