// Changing a signer from the submission's page (PATCH /v1/submitters/{id}, docs/api.md#changing-a-submitter):
// one signer's address and name, or a signer group's members (docs/api.md#signer-groups), one
// address per line; and how a group's members are shown, each with what became of them and, while
// they may still sign, their own link to copy.
import { useState } from 'preact/hooks'
import { call } from '../api.ts'
import { fill, type Texts, useTexts } from '../texts.ts'
import type { Submitter } from '../types.ts'
import { CopyButton, Dialog, ErrorNote, useAction } from '../ui.tsx'

type Member = NonNullable<Submitter['members']>[number]

const MEMBER_STATUS: Record<Member['status'], keyof Texts> = {
  pending: 'member_pending',
  signed: 'member_signed',
  superseded: 'member_superseded',
  declined: 'member_declined',
}

/** A group's members in the signers' table: "Any one of:", then each with their status. */
export function GroupMembers({ signer, open }: { signer: Submitter; open: boolean }) {
  const { t } = useTexts()
  return (
    <>
      <span class="muted small">{t.any_one_of}</span>
      <ul class="group-members">
        {(signer.members ?? []).map((m) => (
          <li key={m.id}>
            <span>
              {m.email} <span class="muted small">({t[MEMBER_STATUS[m.status]]})</span>
            </span>
            {open && m.status === 'pending' ? (
              <CopyButton
                text={m.signing_url}
                label={
                  <>
                    {t.copy_link}
                    <span class="visually-hidden"> {fill(t.copy_link_of, { email: m.email })}</span>
                  </>
                }
              />
            ) : null}
          </li>
        ))}
      </ul>
    </>
  )
}

function EditMembers(props: { signer: Submitter; onClose: () => void; onSaved: (saved: Submitter) => void }) {
  const { t } = useTexts()
  const [text, setText] = useState((props.signer.members ?? []).map((m) => m.email).join('\n'))
  const save = useAction(() => {
    const members = text
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .map((email) => ({ email }))
    return call<Submitter>('PATCH', `/v1/submitters/${props.signer.id}`, { members })
  })
  return (
    <Dialog title={t.edit_signer} onClose={props.onClose}>
      <form
        onSubmit={async (e) => {
          e.preventDefault()
          const done = await save.run()
          if (done) props.onSaved(done.value)
        }}
      >
        <label for="signer-members">{t.edit_members}</label>
        <textarea
          id="signer-members"
          rows={5}
          spellcheck={false}
          autoCapitalize="off"
          required
          aria-describedby="signer-members-hint"
          value={text}
          onInput={(e) => setText(e.currentTarget.value)}
        />
        <p class="muted small" id="signer-members-hint">
          {t.edit_members_hint}
        </p>
        <ErrorNote error={save.error} />
        <div class="dialog-actions">
          <button type="button" class="button" onClick={props.onClose}>
            {t.cancel}
          </button>
          <button type="submit" class="button primary" disabled={save.busy}>
            {t.save}
          </button>
        </div>
      </form>
    </Dialog>
  )
}

/** A signer's address and name; a signer group's members instead (docs/api.md#signer-groups). */
export function EditSigner(props: {
  signer: Submitter
  onClose: () => void
  onSaved: (saved: Submitter) => void
}) {
  if (props.signer.members) return <EditMembers {...props} />
  return <EditOneSigner {...props} />
}

function EditOneSigner(props: {
  signer: Submitter
  onClose: () => void
  onSaved: (saved: Submitter) => void
}) {
  const { t } = useTexts()
  const [email, setEmail] = useState(props.signer.email ?? '')
  const [name, setName] = useState(props.signer.name ?? '')
  const save = useAction(() => {
    const body: Record<string, string | null> = {}
    if (email.trim() !== props.signer.email) body.email = email.trim()
    if (name.trim() !== (props.signer.name ?? '')) body.name = name.trim() || null
    return call<Submitter>('PATCH', `/v1/submitters/${props.signer.id}`, body)
  })
  return (
    <Dialog title={t.edit_signer} onClose={props.onClose}>
      <form
        onSubmit={async (e) => {
          e.preventDefault()
          const done = await save.run()
          if (done) props.onSaved(done.value)
        }}
      >
        <label for="signer-email">{t.email}</label>
        <input
          id="signer-email"
          type="text"
          inputMode="email"
          spellcheck={false}
          autoCapitalize="off"
          required
          value={email}
          onInput={(e) => setEmail(e.currentTarget.value)}
        />
        <label for="signer-name">{t.name}</label>
        <input id="signer-name" type="text" value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <ErrorNote error={save.error} />
        <div class="dialog-actions">
          <button type="button" class="button" onClick={props.onClose}>
            {t.cancel}
          </button>
          <button type="submit" class="button primary" disabled={save.busy}>
            {t.save}
          </button>
        </div>
      </form>
    </Dialog>
  )
}
