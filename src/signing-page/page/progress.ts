// What the signer fills in is saved on the server as they go (docs/api.md#saving-progress): a
// reload, an app switch on a phone or another device resumes where they were. Only the fields that
// changed are sent, 800 ms after the last change, and at once when the page is hidden or left.
// One save at a time, in order; what a failed save carried is sent again with the next one (or
// 10 s later). A
// discreet status says "Saving…", "Saved" or "Not saved yet", announced politely.
import { ApiFailure, call } from './api.ts'
import { h } from './dom.ts'
import type { Value } from './form.ts'
import type { Texts } from './texts.ts'

const DEBOUNCE_MS = 800
/** After a failed save (offline, a 5xx), tried again this much later, or with the next change. */
const RETRY_MS = 10_000
/** Browsers refuse a keepalive body over 64 KiB: a bigger save as the page goes is a plain one. */
const KEEPALIVE_MAX = 60_000
const BATCH_MAX = 1024 * 1024
/** The link can no longer be filled in (signed, declined, ended, not the turn): saving stops. */
const FINAL = [
  'submitter_already_finalized',
  'submission_not_active',
  'not_your_turn',
  'email_2fa_required',
  'submission_purged',
]

type SaveState = 'idle' | 'saving' | 'saved' | 'failed'

export class ProgressSaver {
  private readonly pending = new Map<string, Value | null>()
  private timer: ReturnType<typeof setTimeout> | undefined
  private running: Promise<void> | null = null
  private paused = false
  private state: SaveState = 'idle'
  private t: Texts
  readonly status = h('span', { class: 'save-status', role: 'status', 'aria-live': 'polite' })

  constructor(t: Texts) {
    this.t = t
    document.addEventListener('visibilitychange', this.onHidden)
    window.addEventListener('pagehide', this.onLeave)
  }

  private readonly onHidden = () => {
    if (document.visibilityState === 'hidden') void this.flush(true)
  }

  private readonly onLeave = () => void this.flush(true)

  /** The form came with progress saved before: it is saved as it stands. */
  restored(): void {
    this.show('saved')
  }

  /** The texts of the language now shown (the picker redraws the view). */
  setTexts(t: Texts): void {
    this.t = t
    this.show(this.state)
  }

  /** A field's value changed (undefined: emptied). */
  changed(name: string, value: Value | undefined): void {
    this.pending.set(name, value ?? null)
    if (this.paused) return
    clearTimeout(this.timer)
    this.timer = setTimeout(() => void this.flush(false), DEBOUNCE_MS)
  }

  /** While signing: nothing is sent (the signature carries every value); `resume` if it was refused. */
  pause(): void {
    this.paused = true
    clearTimeout(this.timer)
  }

  resume(): void {
    this.paused = false
    if (this.pending.size > 0) this.timer = setTimeout(() => void this.flush(false), DEBOUNCE_MS)
  }

  /** The link is spent (signed, declined): nothing more is ever sent. */
  stop(): void {
    this.pause()
    this.pending.clear()
    document.removeEventListener('visibilitychange', this.onHidden)
    window.removeEventListener('pagehide', this.onLeave)
  }

  async flush(leaving: boolean): Promise<void> {
    clearTimeout(this.timer)
    while (this.running) await this.running
    if (this.paused || this.pending.size === 0) return
    const batches = batchesOf([...this.pending])
    this.pending.clear()
    this.show('saving')
    this.running = this.send(batches, leaving).finally(() => {
      this.running = null
    })
    await this.running
  }

  /** The batches one after the other; a refused one keeps itself and the rest for later. */
  private async send(batches: Array<Record<string, Value | null>>, leaving: boolean): Promise<void> {
    for (const [index, values] of batches.entries()) {
      const body = { values }
      const keepalive = leaving && JSON.stringify(body).length < KEEPALIVE_MAX
      try {
        await call('PATCH', 'progress', body, { keepalive })
      } catch (failure) {
        this.failed(Object.assign({}, ...batches.slice(index)), failure)
        return
      }
    }
    this.show(this.pending.size > 0 ? 'saving' : 'saved')
  }

  private failed(values: Record<string, Value | null>, failure: unknown): void {
    if (failure instanceof ApiFailure && FINAL.includes(failure.code)) {
      this.stop()
      this.show('idle')
      return
    }
    // Refused as it is (too large, a value the server will not take): trying again would not help,
    // and the values stay on screen for the signature, which says why if it is refused too.
    if (failure instanceof ApiFailure && (failure.status === 413 || failure.status === 422)) {
      this.show('failed')
      return
    }
    // Kept for the next save, unless the field changed again meanwhile.
    for (const [name, value] of Object.entries(values)) {
      if (!this.pending.has(name)) this.pending.set(name, value)
    }
    this.show('failed')
    if (!this.paused) this.timer = setTimeout(() => void this.flush(false), RETRY_MS)
  }

  private show(state: SaveState): void {
    this.state = state
    const { t } = this
    const text = { idle: '', saving: t.progress_saving, saved: t.progress_saved, failed: t.progress_failed }
    this.status.textContent = text[state]
    this.status.dataset.state = state
  }
}

/**
 * The changes in requests under the server's body limit (1 MiB each here, of its 2 MiB): a new
 * signature applied to twenty fields goes in several saves rather than one refused.
 */
function batchesOf(entries: Array<[string, Value | null]>): Array<Record<string, Value | null>> {
  const batches: Array<Record<string, Value | null>> = []
  let batch: Record<string, Value | null> = {}
  let size = 0
  for (const [name, value] of entries) {
    const length = JSON.stringify([name, value]).length
    if (size > 0 && size + length > BATCH_MAX) {
      batches.push(batch)
      batch = {}
      size = 0
    }
    batch[name] = value
    size += length
  }
  if (size > 0) batches.push(batch)
  return batches
}
