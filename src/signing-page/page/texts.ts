// Every text of the signing page, in one place per language, so a translation is one more object.
// Used by the page's script and by the server (the HTML shell's title, its error pages). `{name}`
// marks a value put in by `fill`. English is the reference; French is chosen from Accept-Language.

export const TEXTS = {
  en: {
    page_title: 'Sign {document}',
    page_title_plain: 'Paraph — signing',
    loading: 'Loading the document…',
    no_script: 'This page needs JavaScript to show the document and take your signature.',
    link_unknown_title: 'This signing link does not exist',
    link_unknown_body:
      'Check that you opened the whole link from your e-mail, or ask the sender for a new one.',
    link_invalid_title: 'This signing link is not valid',
    link_invalid_body: 'It may have expired. Ask the sender for a new one.',
    error_generic: 'Something went wrong. Please try again.',
    error_network: 'Paraph could not be reached. Check your connection and try again.',
    retry: 'Try again',
    documents_label: 'Document pages',
    page_of: 'Page {n} of {m}',
    required_left: '{n} required fields left',
    required_left_one: '1 required field left',
    all_filled: 'Everything is filled in: review and sign.',
    field_required: 'required',
    field_optional: 'optional',
    field_filled: 'filled',
    field_empty: 'not filled yet',
    previous: 'Previous',
    next: 'Next',
    next_missing: 'Next missing field',
    done: 'Done',
    sign: 'Sign',
    signing: 'Signing…',
    consent:
      'By signing, I agree to sign this document electronically and that my electronic signature is a simple electronic signature under Regulation (EU) No 910/2014 (eIDAS), with the same intent as my handwritten signature.',
    decline: 'Decline',
    decline_title: 'Decline to sign',
    decline_reason: 'Tell the sender why (required)',
    decline_confirm: 'Decline to sign',
    cancel: 'Cancel',
    type_signature: 'Signature',
    type_initials: 'Initials',
    type_date: 'Date',
    type_text: 'Text',
    type_number: 'Number',
    type_checkbox: 'Checkbox',
    type_radio: 'Choice',
    type_select: 'Choice',
    choose: 'Choose…',
    checkbox_label: 'Tick this box',
    draw: 'Draw',
    type: 'Type',
    draw_hint: 'Draw with your mouse, finger or pen in the box.',
    type_hint: 'Type your name as you want it to appear.',
    typed_name: 'Your name',
    clear: 'Clear',
    apply: 'Use this signature',
    apply_initials: 'Use these initials',
    change: 'Change',
    add_signature: 'Add your signature',
    add_initials: 'Add your initials',
    signature_empty: 'Draw or type your signature first.',
    state_waiting_title: 'Not your turn yet',
    state_waiting_body: 'Someone else signs before you. Come back to this link once they have signed.',
    state_signed_title: 'You have signed',
    state_signed_body:
      'Thank you, your signature is recorded. Once everyone has signed, this link lets you download the sealed document.',
    state_declined_title: 'Declined',
    state_declined_body: 'This document was declined, so it can no longer be signed.',
    state_completed_title: 'Signed by everyone',
    state_completed_body: 'The document is complete. Download the signed PDF, sealed by Paraph.',
    download_signed: 'Download the signed PDF',
    state_expired_title: 'This request has expired',
    state_expired_body: 'It can no longer be signed. Ask the sender for a new one.',
    state_cancelled_title: 'This request was cancelled',
    state_cancelled_body: 'The sender withdrew it. There is nothing to sign.',
    redirecting: 'Taking you back…',
    code_title: 'Confirm your e-mail address',
    code_body: 'To see the document, enter the 6-digit code we send to {email}.',
    code_send: 'Send me a code',
    code_sent: 'A code is on its way to {email}. It is valid for 10 minutes.',
    code_label: '6-digit code',
    code_verify: 'Continue',
    code_resend: 'Send a new code',
    code_wait: 'Please wait a few seconds before asking for another code.',
    code_invalid: 'This code is not right. Check it and try again.',
    code_expired: 'This code has expired or was tried too often. Ask for a new one.',
    missing_fields: 'Please fill in: {fields}.',
    not_your_turn: 'Someone else must sign before you.',
    already_final: 'You have already answered this request.',
    not_active: 'This request can no longer be signed.',
  },
  fr: {
    page_title: 'Signer {document}',
    page_title_plain: 'Paraph — signature',
    loading: 'Chargement du document…',
    no_script: 'Cette page a besoin de JavaScript pour afficher le document et recueillir votre signature.',
    link_unknown_title: "Ce lien de signature n'existe pas",
    link_unknown_body:
      "Vérifiez que vous avez ouvert le lien complet de votre e-mail, ou demandez-en un nouveau à l'expéditeur.",
    link_invalid_title: "Ce lien de signature n'est pas valide",
    link_invalid_body: "Il a peut-être expiré. Demandez-en un nouveau à l'expéditeur.",
    error_generic: 'Une erreur est survenue. Veuillez réessayer.',
    error_network: 'Paraph est injoignable. Vérifiez votre connexion et réessayez.',
    retry: 'Réessayer',
    documents_label: 'Pages du document',
    page_of: 'Page {n} sur {m}',
    required_left: 'Encore {n} champs obligatoires',
    required_left_one: 'Encore 1 champ obligatoire',
    all_filled: 'Tout est rempli : relisez et signez.',
    field_required: 'obligatoire',
    field_optional: 'facultatif',
    field_filled: 'rempli',
    field_empty: 'pas encore rempli',
    previous: 'Précédent',
    next: 'Suivant',
    next_missing: 'Champ manquant suivant',
    done: 'Terminé',
    sign: 'Signer',
    signing: 'Signature en cours…',
    consent:
      "En signant, j'accepte de signer ce document électroniquement et que ma signature électronique soit une signature électronique simple au sens du règlement (UE) n° 910/2014 (eIDAS), avec la même intention que ma signature manuscrite.",
    decline: 'Refuser',
    decline_title: 'Refuser de signer',
    decline_reason: "Indiquez la raison à l'expéditeur (obligatoire)",
    decline_confirm: 'Refuser de signer',
    cancel: 'Annuler',
    type_signature: 'Signature',
    type_initials: 'Initiales',
    type_date: 'Date',
    type_text: 'Texte',
    type_number: 'Nombre',
    type_checkbox: 'Case à cocher',
    type_radio: 'Choix',
    type_select: 'Choix',
    choose: 'Choisir…',
    checkbox_label: 'Cochez cette case',
    draw: 'Dessiner',
    type: 'Saisir',
    draw_hint: 'Dessinez avec la souris, le doigt ou un stylet dans le cadre.',
    type_hint: 'Saisissez votre nom tel que vous voulez le voir apparaître.',
    typed_name: 'Votre nom',
    clear: 'Effacer',
    apply: 'Utiliser cette signature',
    apply_initials: 'Utiliser ces initiales',
    change: 'Modifier',
    add_signature: 'Ajouter votre signature',
    add_initials: 'Ajouter vos initiales',
    signature_empty: "Dessinez ou saisissez d'abord votre signature.",
    state_waiting_title: "Ce n'est pas encore votre tour",
    state_waiting_body: "Quelqu'un signe avant vous. Revenez sur ce lien quand ce sera fait.",
    state_signed_title: 'Vous avez signé',
    state_signed_body:
      'Merci, votre signature est enregistrée. Quand tous auront signé, ce lien vous permettra de télécharger le document scellé.',
    state_declined_title: 'Refusé',
    state_declined_body: 'Ce document a été refusé et ne peut plus être signé.',
    state_completed_title: 'Signé par tous',
    state_completed_body: 'Le document est complet. Téléchargez le PDF signé, scellé par Paraph.',
    download_signed: 'Télécharger le PDF signé',
    state_expired_title: 'Cette demande a expiré',
    state_expired_body: "Elle ne peut plus être signée. Demandez-en une nouvelle à l'expéditeur.",
    state_cancelled_title: 'Cette demande a été annulée',
    state_cancelled_body: "L'expéditeur l'a retirée. Il n'y a rien à signer.",
    redirecting: 'Retour en cours…',
    code_title: 'Confirmez votre adresse e-mail',
    code_body: 'Pour voir le document, saisissez le code à 6 chiffres envoyé à {email}.',
    code_send: 'Recevoir un code',
    code_sent: 'Un code a été envoyé à {email}. Il est valable 10 minutes.',
    code_label: 'Code à 6 chiffres',
    code_verify: 'Continuer',
    code_resend: 'Recevoir un nouveau code',
    code_wait: 'Patientez quelques secondes avant de demander un autre code.',
    code_invalid: "Ce code n'est pas le bon. Vérifiez-le et réessayez.",
    code_expired: 'Ce code a expiré ou a été essayé trop souvent. Demandez-en un nouveau.',
    missing_fields: 'Veuillez remplir : {fields}.',
    not_your_turn: "Quelqu'un doit signer avant vous.",
    already_final: 'Vous avez déjà répondu à cette demande.',
    not_active: 'Cette demande ne peut plus être signée.',
  },
} as const

export type Language = keyof typeof TEXTS
export type TextKey = keyof (typeof TEXTS)['en']
export type Texts = Record<TextKey, string>

export const LANGUAGES = Object.keys(TEXTS) as Language[]

/** `{name}` replaced by `values.name`; other braces stay. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : whole,
  )
}

/**
 * The best language for an Accept-Language header (RFC 9110 §12.5.4): the highest-weighted range
 * whose primary tag we have, English when none does.
 */
export function pickLanguage(header: string | undefined): Language {
  if (!header) return 'en'
  const ranges = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';')
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean)
      return {
        primary: tag.trim().toLowerCase().split('-')[0] ?? '',
        q: q === undefined ? 1 : Number(q),
        index,
      }
    })
    .filter((r) => r.primary && Number.isFinite(r.q) && r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
  for (const range of ranges) {
    if ((LANGUAGES as string[]).includes(range.primary)) return range.primary as Language
  }
  return 'en'
}
