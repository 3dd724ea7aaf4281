// The answer of POST /console/api/submitters/{id}/resend, in a file of its own: the console app reads
// it as a type, and a schema file imports no route code.
import { Type } from 'typebox'

export const SigningRequestResent = Type.Object({
  object: Type.Literal('signing_request'),
  submitter_id: Type.String(),
  submission_id: Type.String(),
  email: Type.String({
    description: "The address mailed; for a signer group, each pending member's, joined by ', '",
  }),
  queued_at: Type.String(),
})
