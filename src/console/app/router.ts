// A small history router (docs/decisions/0002-console-framework.md: no router library). Paths live in
// location; pages read them with usePath() and match(), links go through navigate(). A page holding
// work not yet saved (the template editor) sets a leave guard: a link, navigate() or Back then asks
// it first, and a closed or reloaded tab gets the browser's own prompt (useLeaveGuard).
import { useEffect, useRef, useState } from 'preact/hooks'

export { match } from './route-match.ts'

export const BASE = '/console'
const listeners = new Set<() => void>()

/**
 * Asked before the console leaves the page: answers true when it holds the navigation (it then asks
 * the person, and calls `proceed` if they choose to leave), false to let it go.
 */
export type LeaveGuard = (proceed: () => void) => boolean

let guard: LeaveGuard | null = null
/** The address the page shows: where Back returns to when the guard holds it. */
let shown = location.pathname + location.search

function notify(): void {
  shown = location.pathname + location.search
  for (const listener of listeners) listener()
}

addEventListener('popstate', () => {
  const target = location.pathname + location.search
  if (guard && target !== shown) {
    const held = guard(() => {
      history.pushState(null, '', target)
      notify()
    })
    if (held) {
      // Back has already moved the address: put the page's own back while the person chooses.
      history.pushState(null, '', shown)
      return
    }
  }
  notify()
})

/** Goes to a console path (`/templates`), keeping the page; `replace` for redirects. */
export function navigate(to: string, replace = false): void {
  const url = BASE + to
  if (url === location.pathname + location.search) return
  const go = () => {
    history[replace ? 'replaceState' : 'pushState'](null, '', url)
    notify()
  }
  // A new address for the same page (the editor naming its draft) is not leaving it.
  const samePage = url.split('?')[0] === location.pathname
  if (guard && !samePage && guard(go)) return
  go()
}

/** The page's guard while `leave` is set (null lifts it); the tab's own prompt while `unsaved()`. */
export function useLeaveGuard(leave: LeaveGuard | null, unsaved: () => boolean): void {
  const latest = useRef(unsaved)
  latest.current = unsaved
  useEffect(() => {
    guard = leave
    return () => {
      if (guard === leave) guard = null
    }
  }, [leave])
  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!latest.current()) return
      event.preventDefault()
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = ''
    }
    addEventListener('beforeunload', onBeforeUnload)
    return () => removeEventListener('beforeunload', onBeforeUnload)
  }, [])
}

/** Lifts the guard at once (a page that just saved its work, about to navigate away). */
export function releaseLeaveGuard(): void {
  guard = null
}

/** The current console path without the `/console` prefix (`/` at the root). */
export function currentPath(): string {
  const rest = location.pathname.slice(BASE.length)
  return rest === '' ? '/' : rest.replace(/\/+$/, '') || '/'
}

export function usePath(): string {
  const [, setTick] = useState(0)
  useEffect(() => {
    const listener = () => setTick((n) => n + 1)
    listeners.add(listener)
    return () => {
      listeners.delete(listener)
    }
  }, [])
  return currentPath()
}

/** A click on a console link without modifier keys stays in the page. */
export function onLinkClick(event: MouseEvent, to: string): void {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
  event.preventDefault()
  navigate(to)
}
