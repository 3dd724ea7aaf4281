// Asks the SMTP server of SMTP_URL what it announces (docs/operations.md#e-mail-addresses): one
// connection, the greeting, EHLO (and STARTTLS with its second EHLO when the server offers it), then
// QUIT. Only SMTPUTF8 matters here: without it no address whose local part is not ASCII can be sent
// (RFC 6531), and nodemailer would send one anyway in raw UTF-8 (nodemailer#1378).
import { parseConnectionUrl } from 'nodemailer/lib/shared'
import SMTPConnection from 'nodemailer/lib/smtp-connection'

/** What the probe learnt: the server's answer, or why it could not be asked. */
export type SmtpProbe = { smtputf8: boolean; extensions: string[] } | { error: string }

const PROBE_TIMEOUT_MS = 5_000

export function probeSmtpServer(url: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<SmtpProbe> {
  return new Promise((resolve) => {
    const connection = new SMTPConnection({
      ...parseConnectionUrl(url),
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    })
    let settled = false
    const settle = (probe: SmtpProbe) => {
      if (settled) return
      settled = true
      resolve(probe)
    }
    connection.once('error', (error: Error) => {
      settle({ error: error.message })
      connection.close()
    })
    connection.connect(() => {
      // nodemailer keeps the EHLO reply's keywords here; it has no public getter for them (the
      // custom-auth context shows the same list, but only to a login).
      const extensions = (connection as unknown as { _supportedExtensions?: unknown })._supportedExtensions
      if (Array.isArray(extensions)) {
        settle({ smtputf8: extensions.includes('SMTPUTF8'), extensions: extensions.map(String) })
      } else settle({ error: 'the SMTP client did not report the EHLO extensions' })
      connection.quit()
    })
  })
}
