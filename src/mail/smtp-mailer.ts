// SMTP delivery (SMTP_URL): one pooled nodemailer transport per process, closed with the process's
// deps. A send either ends with the server's acceptance, or throws: MailRejectedError for a
// permanent 5xx refusal, the transport's own error for anything a later attempt may get past.
import type { FastifyBaseLogger } from 'fastify'
import { createTransport } from 'nodemailer'
import { parseEmailAddress } from '../lib/email-address.ts'
import type { MailMessage } from './mail-job.ts'
import { type Mailer, MailRejectedError, type Utf8Delivery } from './mailer.ts'
import { probeSmtpServer, type SmtpProbe } from './smtp-probe.ts'

/**
 * A send gives up after this long, whatever the server does (a server trickling its replies defeats
 * socket timeouts): well inside the worker's 60 s job lease, so no second worker takes the job
 * while this one may still deliver it.
 */
const SEND_DEADLINE_MS = 45_000

interface SmtpError extends Error {
  code?: string
  responseCode?: number
  response?: string
  /** Set by nodemailer from the reply class: true for 5xx other than 503. */
  permanent?: boolean
}

/** What the server said of a message it took. */
interface SentInfo {
  rejected: string[]
  rejectedErrors?: Array<SmtpError & { recipient?: string }> | undefined
  serverMessageId?: string | undefined
}

/**
 * RFC 5321: a 5yz reply refuses the message for good, a 4yz reply for now. 503 (bad sequence) and an
 * authentication failure are the session's or the configuration's fault, not the message's: an
 * operator fixes them and the mail must still go, so they are retried.
 */
export function isPermanentRefusal(error: SmtpError): boolean {
  if (error.code === 'EAUTH' || error.code === 'ENOAUTH') return false
  const code = error.responseCode
  return error.permanent ?? (code !== undefined && code >= 500 && code < 600 && code !== 503)
}

export class SmtpMailer implements Mailer {
  readonly kind = 'smtp'
  private readonly transport

  private readonly from: string
  private readonly logger: FastifyBaseLogger
  private readonly url: string
  /** The last question to the server about SMTPUTF8; null until something needs the answer. */
  private probe: Promise<SmtpProbe> | null = null
  constructor(url: string, from: string, logger: FastifyBaseLogger) {
    this.from = from
    this.logger = logger
    this.url = url
    // The URL's own query (`?tls.rejectUnauthorized=false`, `?pool=false`) wins over these defaults.
    this.transport = createTransport({
      url,
      pool: true,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    })
    // An idle pooled connection the server drops is not a send's failure; never an unhandled event.
    this.transport.on('error', (error: Error) =>
      logger.warn({ err: error }, 'SMTP connection failed while idle; the next mail opens a new one'),
    )
  }

  async utf8Delivery(): Promise<Utf8Delivery> {
    const asked = this.probe ?? this.ask()
    const probe = await asked
    // Not reached (an outage, a wrong SMTP_URL): the next question asks again.
    if ('error' in probe && this.probe === asked) this.probe = null
    return 'error' in probe ? 'unreachable' : probe.smtputf8 ? 'announced' : 'not_announced'
  }

  /** docs/operations.md#e-mail-addresses: one line says what the server announced, or why it could not be asked. */
  private ask(): Promise<SmtpProbe> {
    // Host and port only: SMTP_URL may hold a password.
    const server = new URL(this.url).host
    this.probe = probeSmtpServer(this.url).then((probe) => {
      if ('error' in probe) {
        this.logger.warn(
          { smtp_server: server, err: probe.error },
          'SMTP server could not be asked whether it announces SMTPUTF8: addresses whose local part is not ASCII are refused (422 email_not_deliverable) until it answers',
        )
      } else {
        this.logger.info(
          { smtp_server: server, smtputf8: probe.smtputf8, extensions: probe.extensions },
          probe.smtputf8
            ? 'SMTP server announces SMTPUTF8: addresses whose local part is not ASCII are accepted'
            : 'SMTP server does not announce SMTPUTF8: addresses whose local part is not ASCII are refused (422 email_not_deliverable)',
        )
      }
      return probe
    })
    return this.probe
  }

  /**
   * Mail to a non-ASCII local part goes only to a server that announced SMTPUTF8: nodemailer would
   * otherwise send the raw UTF-8 (nodemailer#1378). Refused at creation already; this holds when
   * SMTP_URL changed to such a server since, or the mail waited in the outbox.
   */
  private async checkUtf8(message: MailMessage): Promise<void> {
    const addresses = [message.to, message.bcc, message.reply_to].filter((a) => typeof a === 'string')
    const needy = addresses.find((a) => {
      const parsed = parseEmailAddress(a)
      return parsed.ok && !parsed.address.asciiLocalPart
    })
    if (needy === undefined) return
    const delivery = await this.utf8Delivery()
    if (delivery === 'announced') return
    const local = `${needy} has a non-ASCII local part`
    // Unreachable: the send would fail anyway, and is retried; a server without SMTPUTF8 never takes it.
    if (delivery === 'unreachable')
      throw new Error(`${local} and the SMTP server could not be asked whether it announces SMTPUTF8`)
    throw new MailRejectedError(`${local} and the SMTP server does not announce SMTPUTF8`, undefined)
  }

  async send(message: MailMessage, messageId: string): Promise<void> {
    await this.checkUtf8(message)
    let info: SentInfo
    try {
      info = await this.transport.sendMail({
        from: this.from,
        to: message.to_name ? { name: message.to_name, address: message.to } : message.to,
        ...(message.bcc ? { bcc: message.bcc } : {}),
        ...(message.reply_to ? { replyTo: message.reply_to } : {}),
        subject: message.subject,
        text: message.text,
        ...(message.html ? { html: message.html } : {}),
        messageId,
        // RFC 3834: no vacation auto-replies to a machine's mail.
        headers: { 'Auto-Submitted': 'auto-generated' },
        signal: AbortSignal.timeout(SEND_DEADLINE_MS),
      })
    } catch (error) {
      const smtp = error as SmtpError
      if (isPermanentRefusal(smtp)) throw new MailRejectedError(smtp.message, smtp.response)
      // The job's last_error then says what kind of failure it was: `ESOCKET: connect ECONNREFUSED …`.
      throw new Error(`${smtp.code ?? 'SMTP'}: ${smtp.message}`, { cause: error })
    }
    this.checkRecipients(message, messageId, info)
  }

  /** The server took the message but refused some recipients (the bcc): the mail went, say who missed it. */
  private checkRecipients(message: MailMessage, messageId: string, info: SentInfo): void {
    const toError = info.rejectedErrors?.find((e) => e.recipient === message.to)
    if (info.rejected.includes(message.to)) {
      // The bcc got it; the signer did not. Permanent: recorded as failed. Transient: retried (the
      // bcc may then get a copy with the same Message-ID).
      const error = toError ?? { message: `recipient ${message.to} refused`, name: 'Error' }
      if (isPermanentRefusal(error)) throw new MailRejectedError(error.message, error.response)
      throw new Error(`the SMTP server refused ${message.to} for now: ${error.message}`)
    }
    if (info.rejected.length > 0) {
      this.logger.warn(
        { message_id: messageId, rejected: info.rejected, submission_id: message.submission_id },
        'the SMTP server refused some recipients of a mail; the others got it',
      )
    }
    if (info.serverMessageId && info.serverMessageId !== messageId) {
      this.logger.info(
        { message_id: messageId, server_message_id: info.serverMessageId },
        'the SMTP server gave the mail a Message-ID of its own',
      )
    }
  }

  async close(): Promise<void> {
    this.transport.close()
  }
}
