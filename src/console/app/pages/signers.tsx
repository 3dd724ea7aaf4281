// How far a submission's signers are: "1 of 2 signed" and one badge per signer, named (or their
// e-mail) with their role, saying whose turn it is in preserved order (signer-turns.ts);
// signerName() is how every page names a signer.
import { type SignerState, signerStates } from '../signer-turns.ts'
import { fill, type Texts, useTexts } from '../texts.ts'
import type { Submission, Submitter } from '../types.ts'
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

/** A signer's address; a signer group's members' addresses (docs/api.md#signer-groups) until one signed. */
export const signerAddress = (signer: Pick<Submitter, 'email' | 'members'>) =>
  signer.email ?? (signer.members ?? []).map((m) => m.email).join(', ')

/** A signer as a person reads them: their name, else their e-mail; a group's members by name or address. */
export const signerName = (signer: Pick<Submitter, 'name' | 'email' | 'members'>) =>
  signer.name ??
  signer.email ??
  [...new Set((signer.members ?? []).map((m) => m.name ?? m.email))].join(' / ')

export function SignerBadge({ state }: { state: SignerState }) {
  const { t } = useTexts()
  if (state.kind === 'turn') {
    return <Badge tone="info">{state.mailed ? t.signer_turn_sent : t.signer_turn}</Badge>
  }
  if (state.kind === 'waiting_for') {
    return <Badge tone="neutral">{fill(t.signer_waiting_for, { role: state.role })}</Badge>
  }
  return <Badge tone={SIGNER_TONES[state.status]}>{signerStatus(t, state.status)}</Badge>
}

export function SignersProgress({ submission }: { submission: Submission }) {
  const { t } = useTexts()
  const { submitters } = submission
  const states = signerStates(submission)
  const signed = submitters.filter((s) => s.status === 'signed' || s.status === 'pre_signed').length
  return (
    <div class="signers">
      <span class="progress-text">{fill(t.signed_of, { n: signed, total: submitters.length })}</span>
      <ul class="signer-list">
        {submitters.map((s) => (
          <li key={s.id}>
            <span class="signer-name">{signerName(s)}</span> <span class="signer-role">({s.role})</span>{' '}
            <SignerBadge state={states.get(s.id) ?? { kind: 'status', status: s.status }} />
          </li>
        ))}
      </ul>
    </div>
  )
}
