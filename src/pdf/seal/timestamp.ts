// RFC 3161 signature time-stamps for the PAdES B-T seal (docs/operations.md#configuration
// TSA_URL; docs/security.md#the-pades-seal): the imprint is the SHA-256 of the SignerInfo's
// signature value, not of the document. Any failure throws: a seal never falls back to the local
// clock, the finalization is retried instead.
import { createHash, randomBytes } from 'node:crypto'
import * as asn1js from 'asn1js'
import * as pkijs from 'pkijs'
import { LIMITS } from '../../limits.ts'
import { FinalPdfError } from '../final/final-pdf-error.ts'

export const TST_OID = {
  /** id-ct-TSTInfo. */
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  sha256: '2.16.840.1.101.3.4.2.1',
} as const

export interface TimestampAuthority {
  /** TSA_URL: operator configuration, not user input (no SSRF guard, a timeout). */
  url: string
  /** LIMITS.tsaTimeoutMs when absent; tests shorten it. */
  timeoutMs?: number
}

export interface Timestamp {
  /** DER of the TimeStampToken (a ContentInfo holding a SignedData), as the TSA sent it. */
  token: Uint8Array
  /** genTime of the token's TSTInfo. */
  time: Date
}

/** Asks the TSA for a token over `signature` and checks it answers that very request. */
export async function requestTimestamp(tsa: TimestampAuthority, signature: Uint8Array): Promise<Timestamp> {
  const imprint = createHash('sha256').update(signature).digest()
  const nonce = randomBytes(8)
  // A positive INTEGER without a leading zero octet, so the TSA's DER copy of it is byte-equal.
  nonce[0] = (nonce[0]! & 0x3f) | 0x40
  const request = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: TST_OID.sha256 }),
      hashedMessage: new asn1js.OctetString({ valueHex: imprint }),
    }),
    nonce: new asn1js.Integer({ valueHex: nonce }),
    certReq: true,
  })
  const answer = await post(tsa, new Uint8Array(request.toSchema().toBER()))
  return checkedToken(answer, imprint, nonce, hostOf(tsa.url))
}

/** The TSA's host for messages: the URL itself may carry credentials. */
function hostOf(url: string): string {
  return new URL(url).host
}

async function post(tsa: TimestampAuthority, body: Uint8Array): Promise<Uint8Array> {
  const host = hostOf(tsa.url)
  const timeoutMs = tsa.timeoutMs ?? LIMITS.tsaTimeoutMs
  try {
    const response = await fetch(tsa.url, {
      method: 'POST',
      headers: { 'content-type': 'application/timestamp-query' },
      body,
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    })
    if (response.status !== 200) {
      await response.body?.cancel()
      throw new Error(`answered HTTP ${response.status}`)
    }
    return await boundedBody(response)
  } catch (error) {
    const cause = (error as Error).name === 'TimeoutError' ? `did not answer within ${timeoutMs} ms` : null
    throw new FinalPdfError(
      `the time-stamping authority (TSA_URL, ${host}) ${cause ?? (error as Error).message}`,
    )
  }
}

/** The body, refused past LIMITS.tsaResponseBytes (a token is a few KB). */
async function boundedBody(response: Response): Promise<Uint8Array> {
  const chunks: Uint8Array[] = []
  let length = 0
  for await (const chunk of response.body ?? []) {
    length += chunk.length
    if (length > LIMITS.tsaResponseBytes) {
      throw new Error(`answered more than ${LIMITS.tsaResponseBytes} bytes`)
    }
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}

/** RFC 3161 §2.4.2: status granted (0) or grantedWithMods (1); the token's TSTInfo echoes our imprint and nonce. */
function checkedToken(answer: Uint8Array, imprint: Buffer, nonce: Buffer, host: string): Timestamp {
  const fail = (problem: string) => new Error(`the time-stamping authority (TSA_URL, ${host}) ${problem}`)
  const asn1 = asn1js.fromBER(answer)
  if (asn1.offset === -1) throw fail('answered something that is not a TimeStampResp')
  let response: pkijs.TimeStampResp
  let tstInfo: pkijs.TSTInfo
  try {
    response = new pkijs.TimeStampResp({ schema: asn1.result })
    if (response.status.status > 1 || !response.timeStampToken) {
      const text = response.status.statusStrings?.map((s) => s.valueBlock.value).join('; ')
      throw fail(`refused the request (status ${response.status.status}${text ? `: ${text}` : ''})`)
    }
    const signedData = new pkijs.SignedData({ schema: response.timeStampToken.content })
    const { eContentType, eContent } = signedData.encapContentInfo
    if (eContentType !== TST_OID.tstInfo || !eContent) throw new Error('no TSTInfo')
    tstInfo = pkijs.TSTInfo.fromBER(eContent.getValue())
  } catch (error) {
    if ((error as Error).message.startsWith('the time-stamping')) throw error
    throw fail(`answered a malformed token (${(error as Error).message})`)
  }
  const { messageImprint } = tstInfo
  const echoed = Buffer.from(messageImprint.hashedMessage.valueBlock.valueHexView)
  if (messageImprint.hashAlgorithm.algorithmId !== TST_OID.sha256 || !echoed.equals(imprint)) {
    throw fail("answered a token for another imprint than the signature's SHA-256")
  }
  if (!tstInfo.nonce || !Buffer.from(tstInfo.nonce.valueBlock.valueHexView).equals(nonce)) {
    throw fail('answered a token without our nonce')
  }
  // The token as sent (not re-encoded): the second element of the TimeStampResp SEQUENCE.
  const tokenBlock = (asn1.result as asn1js.Sequence).valueBlock.value[1]!
  return { token: new Uint8Array(tokenBlock.valueBeforeDecodeView), time: tstInfo.genTime }
}
