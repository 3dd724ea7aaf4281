// Undo and redo over the field list: each finished action (a drawing, a move, an edit) is one step.
// While a drag is under way the list changes without a step; its end records one. A burst of key
// presses (arrows that nudge or resize) is previewed the same way and settles as one step; a commit
// or an undo that comes before it settles counts the burst as its own step first.
import { useCallback, useRef, useState } from 'preact/hooks'

const LIMIT = 200

export interface History<T> {
  value: T
  /** Replaces the value as one undoable step. */
  commit(next: T): void
  /** Replaces the value for now (a drag); `settle()` makes the whole drag one step. */
  preview(next: T): void
  /** A key press of a burst named `tag` (one field's nudges): one step with the presses of the same tag around it. */
  burst(next: T, tag: string): void
  settle(): void
  undo(): void
  redo(): void
  canUndo: boolean
  canRedo: boolean
}

export function useHistory<T>(initial: T): History<T> {
  const [state, setState] = useState({ value: initial, past: [] as T[], future: [] as T[] })
  const before = useRef<T | undefined>(undefined)
  /** The burst under way, if the pending preview is one. */
  const burstTag = useRef<string | null>(null)
  // The value as of the last call, known at once (a state update lands at the next render).
  const current = useRef(state.value)
  current.current = state.value
  const commit = useCallback((next: T) => {
    const pending = before.current
    before.current = undefined
    burstTag.current = null
    current.current = next
    setState((s) => {
      const past = pending !== undefined && pending !== s.value ? [...s.past, pending] : s.past
      return { value: next, past: [...past, s.value].slice(-LIMIT), future: [] }
    })
  }, [])
  const settle = useCallback(() => {
    const start = before.current
    before.current = undefined
    burstTag.current = null
    if (start === undefined) return
    setState((s) => (s.value === start ? s : { ...s, past: [...s.past, start].slice(-LIMIT), future: [] }))
  }, [])
  const show = (next: T) => {
    if (before.current === undefined) before.current = current.current
    current.current = next
    setState((s) => ({ ...s, value: next }))
  }
  const preview = useCallback(
    (next: T) => {
      // A gesture after a burst of key presses is a step of its own.
      if (burstTag.current !== null) settle()
      show(next)
    },
    [settle],
  )
  const burst = useCallback(
    (next: T, tag: string) => {
      if (burstTag.current !== tag) settle()
      burstTag.current = tag
      show(next)
    },
    [settle],
  )
  const undo = useCallback(() => {
    const pending = before.current
    before.current = undefined
    burstTag.current = null
    setState((s) => {
      // A burst not yet settled is the step to undo: back to where it started.
      if (pending !== undefined && pending !== s.value)
        return { value: pending, past: s.past, future: [s.value, ...s.future] }
      return s.past.length === 0
        ? s
        : { value: s.past[s.past.length - 1]!, past: s.past.slice(0, -1), future: [s.value, ...s.future] }
    })
  }, [])
  const redo = useCallback(() => {
    // An edit not yet settled is newer than anything undone: it settles, and nothing is left to redo.
    if (before.current !== undefined) return settle()
    setState((s) =>
      s.future.length === 0
        ? s
        : { value: s.future[0]!, past: [...s.past, s.value], future: s.future.slice(1) },
    )
  }, [settle])
  return {
    value: state.value,
    commit,
    preview,
    burst,
    settle,
    undo,
    redo,
    canUndo: state.past.length > 0,
    canRedo: state.future.length > 0,
  }
}
