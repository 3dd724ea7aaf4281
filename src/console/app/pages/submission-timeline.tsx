// A submission's journal as a timeline on its page (submission-detail.tsx): GET
// /v1/events?submission_id=, oldest first, each event in words naming the signer it is about.
import { query } from '../api.ts'
import { formatDateTime } from '../format.ts'
import { firstAsked } from '../signer-turns.ts'
import { fill, type Texts, useTexts } from '../texts.ts'
import type { JournalEvent, Submission, Submitter } from '../types.ts'
import { ErrorNote, Loading, useGet } from '../ui.tsx'
import { signerName } from './signers.tsx'

export function Timeline({ submission }: { submission: Submission }) {
  const { t, language } = useTexts()
  const events = useGet<{ data: JournalEvent[] }>(
    `/v1/events${query({ submission_id: submission.id, limit: 100 })}`,
  )
  // The API lists newest first; a timeline reads from the start.
  const ordered = events.data ? [...events.data.data].reverse() : undefined
  const byId = new Map(submission.submitters.map((signer) => [signer.id, signer]))
  const first = firstAsked(submission)
  return (
    <section class="panel" aria-labelledby="timeline-title">
      <h2 id="timeline-title">{t.timeline}</h2>
      <ErrorNote error={events.error} />
      {!ordered && !events.error ? <Loading /> : null}
      {ordered && ordered.length === 0 ? <p class="muted">{t.timeline_empty}</p> : null}
      {ordered && ordered.length > 0 ? (
        <ol class="timeline">
          {ordered.map((event) => {
            const line = describeEvent(t, event, byId, first)
            return (
              <li key={event.id}>
                <span class="timeline-dot" aria-hidden="true" />
                <span class="timeline-type">{line.text}</span>{' '}
                <time dateTime={event.created_at} class="muted">
                  {formatDateTime(language, event.created_at)}
                </time>
                {line.detail ? <span class="muted"> · {line.detail}</span> : null}
              </li>
            )
          })}
        </ol>
      ) : null}
    </section>
  )
}

/**
 * An event in words. A signer's event names them ("Alice Martin signed", their role beside); the
 * journal carries only the signer's id, matched here against the submission's signers. A signer
 * the page does not know (none should) is named by the e-mail the event carries, else its id.
 * Sent in preserved order, only the first signer was asked: the line names them.
 */
function describeEvent(
  t: Texts,
  event: JournalEvent,
  signers: Map<string, Submitter>,
  firstInOrder: Submitter | undefined,
): { text: string; detail: string | null } {
  if (event.type === 'submission.sent' && firstInOrder) {
    return { text: fill(t.event_sent_first, { who: signerName(firstInOrder) }), detail: firstInOrder.role }
  }
  const texts = t as unknown as Record<string, string | undefined>
  const key = event.type.replace('.', '_')
  const signer = event.submitter_id ? signers.get(event.submitter_id) : undefined
  const email = typeof event.data.email === 'string' ? event.data.email : null
  // A purged submission's signers have no name or address left: their role names them.
  const who = signer ? signerName(signer) || signer.role : (email ?? event.submitter_id)
  const named = texts[`event_by_${key}`]
  if (who && named && event.type.startsWith('submitter.'))
    return { text: fill(named, { who }), detail: signer?.role ?? null }
  const text = texts[`event_${key}`] ?? event.type
  if (!who) return { text, detail: null }
  return { text, detail: signer ? `${who} (${signer.role})` : who }
}
