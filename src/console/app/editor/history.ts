// Undo and redo over the field list: each finished action (a drawing, a move, an edit) is one step.
// While a drag is under way the list changes without a step; its end records one.
import { useCallback, useRef, useState } from 'preact/hooks'

const LIMIT = 200

export interface History<T> {
  value: T
  /** Replaces the value as one undoable step. */
  commit(next: T): void
  /** Replaces the value for now (a drag); `settle()` makes the whole drag one step. */
  preview(next: T): void
  settle(): void
  undo(): void
  redo(): void
  canUndo: boolean
  canRedo: boolean
}

export function useHistory<T>(initial: T): History<T> {
  const [state, setState] = useState({ value: initial, past: [] as T[], future: [] as T[] })
  const before = useRef<T | undefined>(undefined)
  // The value as of the last call, known at once (a state update lands at the next render).
  const current = useRef(state.value)
  current.current = state.value
  const commit = useCallback((next: T) => {
    current.current = next
    setState((s) => ({ value: next, past: [...s.past, s.value].slice(-LIMIT), future: [] }))
  }, [])
  const preview = useCallback((next: T) => {
    if (before.current === undefined) before.current = current.current
    current.current = next
    setState((s) => ({ ...s, value: next }))
  }, [])
  const settle = useCallback(() => {
    const start = before.current
    before.current = undefined
    if (start === undefined) return
    setState((s) => (s.value === start ? s : { ...s, past: [...s.past, start].slice(-LIMIT), future: [] }))
  }, [])
  const undo = useCallback(
    () =>
      setState((s) =>
        s.past.length === 0
          ? s
          : { value: s.past[s.past.length - 1]!, past: s.past.slice(0, -1), future: [s.value, ...s.future] },
      ),
    [],
  )
  const redo = useCallback(
    () =>
      setState((s) =>
        s.future.length === 0
          ? s
          : { value: s.future[0]!, past: [...s.past, s.value], future: s.future.slice(1) },
      ),
    [],
  )
  return {
    value: state.value,
    commit,
    preview,
    settle,
    undo,
    redo,
    canUndo: state.past.length > 0,
    canRedo: state.future.length > 0,
  }
}
