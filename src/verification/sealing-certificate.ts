// This instance's sealing certificate (DER), for POST /v1/verify to tell its own seals from others'.
// The API process never seals: it loads the identity the finalizer uses (identitySource), once per
// configuration, and keeps only the certificate.
import type { Deps } from '../deps.ts'
import { loadSigningCertificate } from '../pdf/seal/signing-certificate.ts'
import { identitySource } from '../submissions/finalize-submission.ts'

const certificates = new Map<string, Promise<Uint8Array>>()

export function sealingCertificate(deps: Pick<Deps, 'config'>): Promise<Uint8Array> {
  const source = identitySource(deps)
  const key = JSON.stringify(source)
  let certificate = certificates.get(key)
  if (!certificate) {
    certificate = loadSigningCertificate(source).then((identity) => identity.certificate)
    // A failure (an unreadable PKCS#12) is not kept: the next request tries again.
    certificate.catch(() => certificates.delete(key))
    certificates.set(key, certificate)
  }
  return certificate
}
