// The Send page's signers: one block per role of the template (e-mail, name, e-mail code), moved up
// or down with buttons that keep the keyboard, and the choice of signing order. A role may take
// several addresses — "any one of" these people signs for it (docs/api.md#signer-groups).
import { useEffect, useState } from 'preact/hooks'
import { fill, useTexts } from '../texts.ts'
import { described, FieldError } from './send-field-error.tsx'

export interface Signer {
  role: string
  email: string
  /** More people who may sign for the role instead (a signer group); empty for one signer. */
  others: string[]
  name: string
  email2fa: boolean
}

/** At most 10 people in a group: the first address and 9 others. */
const MAX_OTHERS = 9

export type Order = 'preserved' | 'random'
type Direction = 'up' | 'down'

export function SignersSection(props: {
  signers: Signer[]
  setSigners: (change: (list: Signer[]) => Signer[]) => void
  order: Order
  onOrder: (order: Order) => void
  /** The API's refusal of a value (`submitters[0].email`), or null. */
  errorAt: (path: string) => string | null
  onEdited: (index: number) => void
}) {
  const { t } = useTexts()
  const { signers, setSigners } = props
  const moved = useKeyboardOnMovedBlock(signers)
  const update = (index: number, change: Partial<Signer>) => {
    setSigners((list) => list.map((s, i) => (i === index ? { ...s, ...change } : s)))
    props.onEdited(index)
  }
  const move = (index: number, to: Direction) => {
    const target = to === 'up' ? index - 1 : index + 1
    setSigners((list) => {
      const next = [...list]
      ;[next[index], next[target]] = [next[target]!, next[index]!]
      return next
    })
    moved({ role: signers[index]!.role, to })
  }
  return (
    <section class="panel" aria-labelledby="send-signers-title">
      <h2 id="send-signers-title">{t.send_signers}</h2>
      <ol class="send-signers">
        {signers.map((signer, i) => (
          <SignerBlock
            key={signer.role}
            signer={signer}
            index={i}
            count={signers.length}
            ordered={props.order === 'preserved'}
            errors={{
              email:
                props.errorAt(`submitters[${i}].email`) ??
                props.errorAt(`submitters[${i}].members`) ??
                props.errorAt(`submitters[${i}].members[0].email`),
              others: signer.others.map((_, j) => props.errorAt(`submitters[${i}].members[${j + 1}].email`)),
              name: props.errorAt(`submitters[${i}].name`),
            }}
            onChange={(change) => update(i, change)}
            onMove={(to) => move(i, to)}
          />
        ))}
      </ol>
      <OrderChoice order={props.order} onOrder={props.onOrder} />
    </section>
  )
}

/** A moved block keeps the keyboard on its button (the other one once it reached an end). */
function useKeyboardOnMovedBlock(signers: Signer[]) {
  const [moved, setMoved] = useState<{ role: string; to: Direction }>()
  useEffect(() => {
    if (!moved) return
    const index = signers.findIndex((s) => s.role === moved.role)
    const wanted = document.getElementById(`move-${moved.to}-${index}`) as HTMLButtonElement | null
    const other = document.getElementById(`move-${moved.to === 'up' ? 'down' : 'up'}-${index}`)
    ;(wanted && !wanted.disabled ? wanted : other)?.focus()
  }, [moved])
  return setMoved
}

function OrderChoice({ order, onOrder }: { order: Order; onOrder: (order: Order) => void }) {
  const { t } = useTexts()
  return (
    <fieldset class="send-choice">
      <legend>{t.send_order}</legend>
      {(['preserved', 'random'] as const).map((value) => (
        <label class="checkbox" key={value}>
          <input
            type="radio"
            name="signing-order"
            value={value}
            checked={order === value}
            aria-describedby={`send-order-${value}-hint`}
            onChange={() => onOrder(value)}
          />
          <span>
            {value === 'preserved' ? t.send_order_preserved : t.send_order_random}
            <span class="muted small block" id={`send-order-${value}-hint`}>
              {value === 'preserved' ? t.send_order_preserved_hint : t.send_order_random_hint}
            </span>
          </span>
        </label>
      ))}
    </fieldset>
  )
}

interface SignerErrors {
  email: string | null
  /** Of each of `others`, in order. */
  others: Array<string | null>
  name: string | null
}

function SignerBlock(props: {
  signer: Signer
  index: number
  count: number
  ordered: boolean
  errors: SignerErrors
  onChange: (change: Partial<Signer>) => void
  onMove: (to: Direction) => void
}) {
  const { t } = useTexts()
  const { signer, index: i } = props
  return (
    <li class="send-signer">
      <fieldset>
        <legend>
          {props.ordered ? <span class="send-position">{i + 1}</span> : null}
          {signer.role}
        </legend>
        {props.ordered && props.count > 1 ? (
          <MoveButtons role={signer.role} index={i} count={props.count} onMove={props.onMove} />
        ) : null}
        <SignerInputs signer={signer} index={i} errors={props.errors} onChange={props.onChange} />
        <OtherPeople signer={signer} index={i} errors={props.errors.others} onChange={props.onChange} />
        <label class="checkbox">
          <input
            type="checkbox"
            checked={signer.email2fa}
            onChange={(e) => props.onChange({ email2fa: e.currentTarget.checked })}
          />
          {t.send_2fa}
        </label>
      </fieldset>
    </li>
  )
}

function MoveButtons(props: { role: string; index: number; count: number; onMove: (to: Direction) => void }) {
  const { t } = useTexts()
  const { index: i } = props
  return (
    <div class="send-move">
      {(['up', 'down'] as const).map((to) => (
        <button
          type="button"
          class="button small"
          key={to}
          id={`move-${to}-${i}`}
          disabled={to === 'up' ? i === 0 : i === props.count - 1}
          onClick={() => props.onMove(to)}
        >
          <span aria-hidden="true">{to === 'up' ? '↑' : '↓'}</span>{' '}
          {to === 'up' ? t.send_move_up : t.send_move_down}
          <span class="visually-hidden"> — {props.role}</span>
        </button>
      ))}
    </div>
  )
}

function SignerInputs(props: {
  signer: Signer
  index: number
  errors: SignerErrors
  onChange: (change: Partial<Signer>) => void
}) {
  const { t } = useTexts()
  const { signer, index: i, errors } = props
  return (
    <div class="send-signer-fields">
      <div>
        <label for={`signer-${i}-email`}>{t.email}</label>
        <input
          id={`signer-${i}-email`}
          type="text"
          inputMode="email"
          spellcheck={false}
          autoCapitalize="off"
          required
          maxLength={320}
          autoComplete="off"
          value={signer.email}
          {...described(`signer-${i}-email`, errors.email)}
          onInput={(e) => props.onChange({ email: e.currentTarget.value })}
        />
        <FieldError id={`signer-${i}-email-error`} text={errors.email} />
      </div>
      <div>
        <label for={`signer-${i}-name`}>{t.send_name_optional}</label>
        <input
          id={`signer-${i}-name`}
          maxLength={255}
          autoComplete="off"
          value={signer.name}
          {...described(`signer-${i}-name`, errors.name)}
          onInput={(e) => props.onChange({ name: e.currentTarget.value })}
        />
        <FieldError id={`signer-${i}-name-error`} text={errors.name} />
      </div>
    </div>
  )
}

/**
 * "Any one of" (docs/api.md#signer-groups): more addresses for the role, each added and removed by a
 * button that keeps the keyboard on the list; the role is then signed by whichever signs first.
 */
function OtherPeople(props: {
  signer: Signer
  index: number
  errors: Array<string | null>
  onChange: (change: Partial<Signer>) => void
}) {
  const { t } = useTexts()
  const { signer, index: i } = props
  const [focus, setFocus] = useState<number>()
  useEffect(() => {
    if (focus === undefined) return
    const target = focus < signer.others.length ? `signer-${i}-other-${focus}` : `signer-${i}-add`
    document.getElementById(target)?.focus()
    setFocus(undefined)
  }, [focus])
  const set = (others: string[]) => props.onChange({ others })
  return (
    <div class="send-others">
      {signer.others.length > 0 ? (
        <p class="muted small" id={`signer-${i}-group-hint`}>
          {fill(t.send_any_one_of, { role: signer.role })}
        </p>
      ) : null}
      {signer.others.map((email, j) => (
        <div class="send-other" key={j}>
          <label for={`signer-${i}-other-${j}`}>{t.send_other_email}</label>
          <div class="send-other-row">
            <input
              id={`signer-${i}-other-${j}`}
              type="text"
              inputMode="email"
              spellcheck={false}
              autoCapitalize="off"
              required
              maxLength={320}
              autoComplete="off"
              value={email}
              {...described(`signer-${i}-other-${j}`, props.errors[j] ?? null, `signer-${i}-group-hint`)}
              onInput={(e) => set(signer.others.map((o, k) => (k === j ? e.currentTarget.value : o)))}
            />
            <button
              type="button"
              class="button small"
              onClick={() => {
                set(signer.others.filter((_, k) => k !== j))
                setFocus(j)
              }}
            >
              {t.send_remove_person}
              <span class="visually-hidden"> {email}</span>
            </button>
          </div>
          <FieldError id={`signer-${i}-other-${j}-error`} text={props.errors[j] ?? null} />
        </div>
      ))}
      {signer.others.length < MAX_OTHERS ? (
        <button
          type="button"
          class="button small"
          id={`signer-${i}-add`}
          onClick={() => {
            set([...signer.others, ''])
            setFocus(signer.others.length)
          }}
        >
          {t.send_add_person}
          <span class="visually-hidden"> — {signer.role}</span>
        </button>
      ) : null}
    </div>
  )
}
