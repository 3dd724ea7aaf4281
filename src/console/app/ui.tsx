// The console's small kit: loading hooks, dialogs (native <dialog>: modal, focus kept inside, Escape
// closes), the toast live region, error notes, badges and copy buttons.
import type { ComponentChildren } from 'preact'
import { createContext } from 'preact'
import { useCallback, useContext, useEffect, useRef, useState } from 'preact/hooks'
import { ApiFailure, get, type Page } from './api.ts'
import { humanMessage } from './field-labels.ts'
import { fill, useTexts } from './texts.ts'

export interface Loaded<T> {
  data: T | undefined
  error: ApiFailure | undefined
  loading: boolean
  reload: () => void
}

/** Reads `path` (again when it changes, or on reload()). */
export function useGet<T>(path: string | null): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: ApiFailure; loading: boolean }>({ loading: true })
  const [tick, setTick] = useState(0)
  useEffect(() => {
    if (path === null) return
    let current = true
    setState((s) => ({ ...s, loading: true }))
    get<T>(path).then(
      (data) => current && setState({ data, loading: false }),
      (error: unknown) => current && setState({ error: asFailure(error), loading: false }),
    )
    return () => {
      current = false
    }
  }, [path, tick])
  return { data: state.data, error: state.error, loading: state.loading, reload: () => setTick((n) => n + 1) }
}

export interface Paged<T> extends Loaded<T[]> {
  hasMore: boolean
  loadingMore: boolean
  loadMore: () => void
}

/** A cursor-paged list (`{ data, has_more, next_cursor }`): the first page, then "Load more". */
export function usePaged<T>(path: string): Paged<T> {
  const first = useGet<Page<T>>(path)
  const [more, setMore] = useState<{ items: T[]; cursor: string | null; hasMore: boolean }>()
  const [loadingMore, setLoadingMore] = useState(false)
  const [moreError, setMoreError] = useState<ApiFailure>()
  useEffect(() => setMore(undefined), [first.data])
  const items = first.data ? [...first.data.data, ...(more?.items ?? [])] : undefined
  const cursor = more ? more.cursor : (first.data?.next_cursor ?? null)
  const hasMore = more ? more.hasMore : (first.data?.has_more ?? false)
  const loadMore = useCallback(() => {
    if (!cursor) return
    setLoadingMore(true)
    const joiner = path.includes('?') ? '&' : '?'
    get<Page<T>>(`${path}${joiner}cursor=${encodeURIComponent(cursor)}`).then(
      (page) => {
        setMore((m) => ({
          items: [...(m?.items ?? []), ...page.data],
          cursor: page.next_cursor,
          hasMore: page.has_more,
        }))
        setLoadingMore(false)
      },
      (error: unknown) => {
        setMoreError(asFailure(error))
        setLoadingMore(false)
      },
    )
  }, [path, cursor])
  return { ...first, data: items, error: first.error ?? moreError, hasMore, loadingMore, loadMore }
}

export function asFailure(error: unknown): ApiFailure {
  return error instanceof ApiFailure ? error : new ApiFailure(0, 'unexpected', String(error))
}

/** Runs an action, keeping its error and whether it is under way, for the button that started it. */
export function useAction<A extends unknown[], R>(action: (...args: A) => Promise<R>) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ApiFailure>()
  /** `{ value }` when it succeeded, undefined when it failed (the error is then kept). */
  const run = async (...args: A): Promise<{ value: R } | undefined> => {
    setBusy(true)
    setError(undefined)
    try {
      return { value: await action(...args) }
    } catch (e) {
      setError(asFailure(e))
      return undefined
    } finally {
      setBusy(false)
    }
  }
  return { run, busy, error, clear: () => setError(undefined) }
}

export function ErrorNote({ error, id }: { error: ApiFailure | undefined; id?: string }) {
  const { t } = useTexts()
  if (!error) return null
  const retry = error.retryAfter ? ` ${t.retry_after.replace('{s}', error.retryAfter)}` : ''
  // The message in the form's words first; the code and status for whoever reports it, on a line of
  // their own (a failure without a status is the network's: it has no code to show).
  return (
    <p class="error-note" role="alert" id={id}>
      {humanMessage(error, t)}
      {retry}
      {error.code && error.status ? (
        <span class="error-details">
          {fill(t.error_details, { code: error.code, status: String(error.status) })}
        </span>
      ) : null}
    </p>
  )
}

export function Loading() {
  const { t } = useTexts()
  return (
    <p class="loading" role="status">
      <span class="spinner" aria-hidden="true" />
      {t.loading}
    </p>
  )
}

export function Empty({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty">
      <p class="empty-title">{title}</p>
      {children}
    </div>
  )
}

export function Badge({ tone, children }: { tone: string; children: ComponentChildren }) {
  return <span class={`badge badge-${tone}`}>{children}</span>
}

export function Dialog(props: {
  title: string
  onClose: () => void
  children: ComponentChildren
  wide?: boolean
}) {
  const ref = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    const opener = document.activeElement as HTMLElement | null
    dialog.showModal()
    return () => {
      dialog.close()
      opener?.focus()
    }
  }, [])
  const titleId = `dialog-${props.title.replace(/\W+/g, '-').toLowerCase()}`
  return (
    <dialog
      ref={ref}
      class={props.wide ? 'dialog wide' : 'dialog'}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault()
        props.onClose()
      }}
    >
      <h2 id={titleId}>{props.title}</h2>
      {props.children}
    </dialog>
  )
}

/** "Are you sure?" with the action's own error shown inside, so the person sees why it failed. */
export function Confirm(props: {
  title: string
  body: ComponentChildren
  confirm: string
  /** The way out without doing it (default: Cancel). */
  cancel?: string
  danger?: boolean
  onConfirm: () => Promise<unknown>
  onClose: () => void
}) {
  const { t } = useTexts()
  const action = useAction(props.onConfirm)
  return (
    <Dialog title={props.title} onClose={props.onClose}>
      <div class="dialog-body">{props.body}</div>
      <ErrorNote error={action.error} />
      <div class="dialog-actions">
        <button type="button" class="button" onClick={props.onClose}>
          {props.cancel ?? t.cancel}
        </button>
        <button
          type="button"
          class={props.danger ? 'button danger' : 'button primary'}
          disabled={action.busy}
          onClick={async () => {
            const done = await action.run()
            if (done !== undefined) props.onClose()
          }}
        >
          {props.confirm}
        </button>
      </div>
    </Dialog>
  )
}

/** A secret shown once (API key, webhook signing secret), with a copy button and a warning. */
export function SecretDialog(props: { title: string; secret: string; onClose: () => void }) {
  const { t } = useTexts()
  return (
    <Dialog title={props.title} onClose={props.onClose}>
      <p class="warning">{t.secret_once}</p>
      <div class="secret">
        <code>{props.secret}</code>
        <CopyButton text={props.secret} />
      </div>
      <div class="dialog-actions">
        <button type="button" class="button primary" onClick={props.onClose}>
          {t.secret_stored}
        </button>
      </div>
    </Dialog>
  )
}

export function CopyButton({ text, label }: { text: string; label?: ComponentChildren }) {
  const { t } = useTexts()
  const toast = useToast()
  return (
    <button
      type="button"
      class="button small"
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text)
          toast(t.copied)
        } catch {
          toast(t.copy_failed)
        }
      }}
    >
      {label ?? t.copy}
    </button>
  )
}

const ToastContext = createContext<(message: string) => void>(() => {})
export const useToast = () => useContext(ToastContext)

/** Short confirmations, read out by screen readers (a polite live region that always exists). */
export function Toasts({ children }: { children: ComponentChildren }) {
  const [messages, setMessages] = useState<{ id: number; text: string }[]>([])
  const push = useCallback((text: string) => {
    const id = Date.now() + Math.random()
    setMessages((m) => [...m, { id, text }])
    setTimeout(() => setMessages((m) => m.filter((x) => x.id !== id)), 5000)
  }, [])
  return (
    <ToastContext.Provider value={push}>
      {children}
      <div class="toasts" role="status" aria-live="polite">
        {messages.map((m) => (
          <p key={m.id} class="toast">
            {m.text}
          </p>
        ))}
      </div>
    </ToastContext.Provider>
  )
}

export function PageHeader({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="page-header">
      <h1 tabIndex={-1} id="page-title">
        {title}
      </h1>
      {children ? <div class="page-actions">{children}</div> : null}
    </div>
  )
}

export function LoadMore({ paged }: { paged: Paged<unknown> }) {
  const { t } = useTexts()
  if (!paged.hasMore) return null
  return (
    <div class="load-more">
      <button type="button" class="button" disabled={paged.loadingMore} onClick={paged.loadMore}>
        {paged.loadingMore ? t.loading : t.load_more}
      </button>
    </div>
  )
}
