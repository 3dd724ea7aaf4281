// Shared by the e-mail address tests (docs/api.md#e-mail-addresses): the addresses of issue #34
// item 3, what the SMTP server received, and a 422 with its code, field and message.
import assert from 'node:assert/strict'
import type { ReceivedMail } from './fixtures/smtp.ts'
import type { MailTestApp } from './mail.ts'

export const ZOE = 'zoe@müller-bau.de'
export const ZOE_ASCII = 'zoe@xn--mller-bau-q9a.de'
export const JORG = 'jörg@müller-bau.de'
export const CHINESE = '用户@例子.广告'

/** The raw `To:` header line as the server received it (mailparser keeps raw bytes as latin1). */
export function toHeader(mail: ReceivedMail): string {
  const line = mail.parsed.headerLines.find((h) => h.key === 'to')?.line ?? ''
  return Buffer.from(line, 'latin1').toString('utf8')
}

/** What RCPT TO carried on the wire (the fixture's envelope shows xn-- domains decoded). */
export function rcptTo(m: MailTestApp): string[] {
  return m.smtp.commands.filter((c) => c.startsWith('RCPT TO:'))
}

export function refusedWith(
  res: { statusCode: number; body: string },
  code: string,
  param: string,
  message: RegExp,
) {
  assert.equal(res.statusCode, 422, res.body)
  const error = JSON.parse(res.body).error
  assert.deepEqual([error.code, error.param], [code, param], res.body)
  assert.match(error.message, message)
}

export const templateBody = (
  templateId: string,
  first: string,
  second: string,
  extra: Record<string, unknown> = {},
) => ({
  template_id: templateId,
  signing_order: 'random',
  submitters: [
    { role: 'first', email: first, name: 'Zoë' },
    { role: 'second', email: second },
  ],
  ...extra,
})
