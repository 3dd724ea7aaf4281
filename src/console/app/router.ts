// A small history router (docs/decisions/0002-console-framework.md: no router library). Paths live in
// location; pages read them with usePath() and match(), links go through navigate().
import { useEffect, useState } from 'preact/hooks'

export { match } from './route-match.ts'

export const BASE = '/console'
const listeners = new Set<() => void>()

function notify(): void {
  for (const listener of listeners) listener()
}

addEventListener('popstate', notify)

/** Goes to a console path (`/templates`), keeping the page; `replace` for redirects. */
export function navigate(to: string, replace = false): void {
  const url = BASE + to
  if (url === location.pathname + location.search) return
  history[replace ? 'replaceState' : 'pushState'](null, '', url)
  notify()
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
