// The floor of the mail row, run as its own process like Paraph's worker: a bare
// nodemailer loop sending the same messages (read from Paraph's outbox) one after another through
// a pooled transport with Paraph's options, nothing else. Prints `{"started": epoch ms}` before the
// first send. Usage: node --import tsx bench/mail-floor.ts MESSAGES_JSON SMTP_URL MAIL_FROM
import { readFileSync } from 'node:fs'
import { createTransport } from 'nodemailer'
import type { MailMessage } from '../src/mail/mail-job.ts'

const [file, url, from] = process.argv.slice(2) as [string, string, string]
const messages = JSON.parse(readFileSync(file, 'utf8')) as Array<{ id: string; message: MailMessage }>
const transport = createTransport({
  url,
  pool: true,
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 30_000,
})
const domain = from.replace(/^.*@/, '').replace(/>$/, '')
console.log(JSON.stringify({ started: Date.now() }))
for (const { id, message } of messages) {
  await transport.sendMail({
    from,
    to: message.to_name ? { name: message.to_name, address: message.to } : message.to,
    ...(message.bcc ? { bcc: message.bcc } : {}),
    ...(message.reply_to ? { replyTo: message.reply_to } : {}),
    subject: message.subject,
    text: message.text,
    ...(message.html ? { html: message.html } : {}),
    messageId: `<floor-${id}@${domain}>`,
    headers: { 'Auto-Submitted': 'auto-generated' },
  })
}
transport.close()
console.log(JSON.stringify({ finished: Date.now() }))
