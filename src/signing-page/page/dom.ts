// A tiny element builder: the page has a handful of screens, not enough to carry a framework.

type Child = Node | string | null | undefined | false
type Props = Record<string, unknown>

/**
 * `h('button', { class: 'primary', onclick: fn }, 'Sign')`: attributes, listeners (on…), children;
 * `style` is an object of CSS properties.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  for (const [key, value] of Object.entries(props)) {
    if (key === 'style' && typeof value === 'object' && value !== null) {
      // Through the CSSOM: the page's CSP (style-src 'self') refuses style attributes.
      for (const [property, v] of Object.entries(value)) element.style.setProperty(property, String(v))
    } else if (key.startsWith('on') && typeof value === 'function') {
      element.addEventListener(key.slice(2), value as EventListener)
    } else if (value === true) {
      element.setAttribute(key, '')
    } else if (value !== false && value !== null && value !== undefined) {
      element.setAttribute(key, String(value))
    }
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue
    element.append(child)
  }
  return element
}

/** Replaces everything inside `parent`. */
export function mount(parent: Element, ...children: Child[]): void {
  parent.replaceChildren(...children.filter((c): c is Node | string => Boolean(c)))
}
