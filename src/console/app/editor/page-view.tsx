// One page of the draft: its image (loaded lazily, at the width the screen needs) in a box of the
// page's aspect ratio, the fields over it, and the pointer gestures (mouse, pen, touch): drag on
// the page to draw, drag a field to move it (snapping to the others' edges and centres), drag a
// corner to resize. On a touch screen a finger over the page's empty space scrolls (styles.css:
// touch-action), so there a tap deselects and drawing is for mouse and pen. The arrow keys nudge
// the focused field by 1 pt (Shift: 10 pt), with Alt they resize it (right and down grow it); the
// presses in a row on one field are one undo step. Delete removes it and focus moves on to the next
// field of the page (or the one before), so a keyboard user keeps their place.
import { useRef, useState } from 'preact/hooks'
import { useTexts } from '../texts.ts'
import {
  type EditorField,
  type Guides,
  type Handle,
  nudge,
  type PageSize,
  type Rect,
  resized,
  resizedBy,
  snapped,
  spanning,
} from './model.ts'

const SNAP_PX = 4
/** A drag shorter than this (px) is a click: it selects or deselects, it draws nothing. */
const MIN_DRAW_PX = 6

type Gesture =
  | { kind: 'draw'; start: { x: number; y: number }; rect: Rect }
  | { kind: 'move' | Handle; key: string; start: { x: number; y: number }; origin: Rect }

export interface PageViewProps {
  draftId: string
  page: number
  size: PageSize
  fields: EditorField[]
  roles: string[]
  selected: string | null
  /** Preview as one role: only its fields, nothing editable. */
  previewRole: string | null
  onSelect(key: string | null): void
  onDraw(page: number, rect: Rect): void
  /** A field's rectangle during a gesture (`final` at its end, one undo step). */
  onChange(key: string, rect: Rect, final: boolean): void
  /** A key press that moves or resizes a field: one undo step with the presses in a row. */
  onKeyEdit(key: string, rect: Rect): void
  /** The presses in a row are over (the field lost focus). */
  onKeyEditsEnd(): void
  onDelete(key: string): void
}

const HANDLES: Handle[] = ['nw', 'ne', 'sw', 'se']

const pct = (n: number) => `${n * 100}%`

export function PageView(props: PageViewProps) {
  const { t } = useTexts()
  const box = useRef<HTMLDivElement>(null)
  const gesture = useRef<Gesture | undefined>(undefined)
  const [drawing, setDrawing] = useState<Rect>()
  const [guides, setGuides] = useState<Guides>({ x: [], y: [] })
  const src = (w: number) => `/console/api/template_drafts/${props.draftId}/pages/${props.page}?w=${w}`

  const at = (event: PointerEvent) => {
    const r = box.current!.getBoundingClientRect()
    return { x: (event.clientX - r.left) / r.width, y: (event.clientY - r.top) / r.height }
  }

  const begin = (event: PointerEvent, next: Gesture) => {
    if (props.previewRole !== null || event.button > 0) return
    // preventDefault keeps the focus where it was: a role or field name being typed is committed
    // first (its input renames on blur), so a field drawn now gets the name just typed.
    const focused = document.activeElement
    const typing =
      focused instanceof HTMLTextAreaElement ||
      (focused instanceof HTMLInputElement && !['radio', 'checkbox', 'button'].includes(focused.type))
    if (typing) focused.blur()
    event.preventDefault()
    event.stopPropagation()
    gesture.current = next
    box.current!.setPointerCapture(event.pointerId)
  }

  const onPointerMove = (event: PointerEvent) => {
    const g = gesture.current
    if (!g) return
    const p = at(event)
    if (g.kind === 'draw') {
      g.rect = spanning(g.start, p)
      setDrawing(g.rect)
      return
    }
    const dx = p.x - g.start.x
    const dy = p.y - g.start.y
    if (g.kind === 'move') {
      const r = box.current!.getBoundingClientRect()
      const others = props.fields.filter((f) => f.key !== g.key)
      const result = snapped(
        { ...g.origin, x: g.origin.x + dx, y: g.origin.y + dy },
        others,
        SNAP_PX / r.width,
        SNAP_PX / r.height,
      )
      setGuides(result.guides)
      props.onChange(g.key, result.rect, false)
    } else {
      props.onChange(g.key, resized(g.origin, g.kind, dx, dy), false)
    }
  }

  const onPointerUp = (event: PointerEvent) => {
    const g = gesture.current
    if (!g) return
    gesture.current = undefined
    setGuides({ x: [], y: [] })
    if (g.kind === 'draw') {
      setDrawing(undefined)
      const r = box.current!.getBoundingClientRect()
      const p = at(event)
      const big =
        Math.abs(p.x - g.start.x) * r.width >= MIN_DRAW_PX &&
        Math.abs(p.y - g.start.y) * r.height >= MIN_DRAW_PX
      if (big) props.onDraw(props.page, spanning(g.start, p))
      else props.onSelect(null)
      return
    }
    const field = props.fields.find((f) => f.key === g.key)
    if (field) props.onChange(g.key, field, true)
  }

  // The browser took the pointer (a finger over the page's empty space began scrolling it): a
  // drawing under way is dropped; a move or resize keeps where it got to, as one undo step.
  const onPointerCancel = () => {
    const g = gesture.current
    if (!g) return
    gesture.current = undefined
    setGuides({ x: [], y: [] })
    setDrawing(undefined)
    if (g.kind === 'draw') return
    const field = props.fields.find((f) => f.key === g.key)
    if (field) props.onChange(g.key, field, true)
  }

  const onKeyDown = (event: KeyboardEvent, field: EditorField) => {
    if (props.previewRole !== null) return
    const step = event.shiftKey ? 10 : 1
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    }
    const move = moves[event.key]
    if (move) {
      event.preventDefault()
      const [dx, dy] = move
      props.onKeyEdit(
        field.key,
        event.altKey ? resizedBy(field, props.size, dx, dy) : nudge(field, props.size, dx, dy),
      )
    } else if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault()
      const shown = props.fields
      const at = shown.findIndex((f) => f.key === field.key)
      const next = shown[at + 1] ?? shown[at - 1]
      props.onDelete(field.key)
      // After the next render: the next field of the page, else the page itself.
      requestAnimationFrame(() => {
        const target = next
          ? box.current?.querySelector<HTMLElement>(`[data-key="${next.key}"]`)
          : box.current
        target?.focus()
      })
    }
  }

  const shown =
    props.previewRole === null ? props.fields : props.fields.filter((f) => f.role === props.previewRole)
  return (
    <div class="editor-page-wrap">
      <div
        ref={box}
        class={props.previewRole === null ? 'editor-page' : 'editor-page previewing'}
        data-page={props.page}
        tabIndex={-1}
        style={{ aspectRatio: `${props.size.width} / ${props.size.height}` }}
        onPointerDown={(event) =>
          begin(event, { kind: 'draw', start: at(event), rect: { x: 0, y: 0, w: 0, h: 0 } })
        }
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerCancel}
      >
        <img
          class="editor-page-image"
          src={src(800)}
          srcset={`${src(800)} 800w, ${src(1200)} 1200w, ${src(1600)} 1600w`}
          sizes="(min-width: 1100px) 760px, 100vw"
          loading={props.page <= 2 ? 'eager' : 'lazy'}
          decoding="async"
          alt={t.editor_page_alt.replace('{n}', String(props.page))}
          draggable={false}
        />
        {shown.map((field) => {
          const roleIndex = Math.max(0, props.roles.indexOf(field.role)) % 6
          const selected = field.key === props.selected
          return (
            <button
              type="button"
              key={field.key}
              class={`editor-field role-${roleIndex}${selected ? ' selected' : ''}`}
              data-field={field.name}
              data-key={field.key}
              aria-pressed={selected}
              aria-label={t.editor_field_label
                .replace('{name}', field.name)
                .replace('{type}', t[`type_${field.type}`])
                .replace('{role}', field.role)
                .replace('{page}', String(props.page))}
              style={{ left: pct(field.x), top: pct(field.y), width: pct(field.w), height: pct(field.h) }}
              onFocus={() => props.onSelect(field.key)}
              onBlur={props.onKeyEditsEnd}
              onKeyDown={(event) => onKeyDown(event, field)}
              onPointerDown={(event) => {
                props.onSelect(field.key)
                ;(event.currentTarget as HTMLElement).focus()
                begin(event, { kind: 'move', key: field.key, start: at(event), origin: field })
              }}
            >
              <span class="editor-field-name">{field.name}</span>
              {selected && props.previewRole === null
                ? HANDLES.map((handle) => (
                    <span
                      key={handle}
                      class={`editor-handle ${handle}`}
                      aria-hidden="true"
                      onPointerDown={(event) =>
                        begin(event, { kind: handle, key: field.key, start: at(event), origin: field })
                      }
                    />
                  ))
                : null}
            </button>
          )
        })}
        {drawing ? (
          <div
            class="editor-drawing"
            style={{
              left: pct(drawing.x),
              top: pct(drawing.y),
              width: pct(drawing.w),
              height: pct(drawing.h),
            }}
          />
        ) : null}
        {guides.x.map((x) => (
          <div key={`x${x}`} class="editor-guide vertical" style={{ left: pct(x) }} />
        ))}
        {guides.y.map((y) => (
          <div key={`y${y}`} class="editor-guide horizontal" style={{ top: pct(y) }} />
        ))}
      </div>
      <p class="editor-page-number muted small">{t.editor_page_of.replace('{n}', String(props.page))}</p>
    </div>
  )
}
