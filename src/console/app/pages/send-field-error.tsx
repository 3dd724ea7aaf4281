// How an input of the Send page shows the API's refusal of its value: the message under it, and
// the input marked invalid and described by that message instead of its hint.

/** An input's aria-invalid and aria-describedby: its error when it has one, else its hint. */
export function described(id: string, error: string | null, hint?: string) {
  return {
    'aria-invalid': error ? ('true' as const) : undefined,
    'aria-describedby': error ? `${id}-error` : hint,
  }
}

export function FieldError({ id, text }: { id: string; text: string | null }) {
  return text ? (
    <p class="field-error" id={id} role="alert">
      {text}
    </p>
  ) : null
}
