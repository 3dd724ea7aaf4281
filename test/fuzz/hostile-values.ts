// The hostile-value catalogue: prototype-named keys, odd numbers, bytes that are not UTF-8, deep and
// huge JSON, malformed ids, and the header values clients get wrong. Sizes are bounded so a run stays
// fast: 10 000 levels of nesting, 1.1 MB strings (just over the 1 MiB default body limit).

/** Keys that name Object.prototype members or the prototype itself. */
export const PROTO_KEYS = [
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
  'prototype',
  'isPrototypeOf',
  'propertyIsEnumerable',
  '__lookupGetter__',
  'toLocaleString',
]

/** Every form a query parser may read a prototype-named key in; `param` is one of the route's own. */
export function protoQueryForms(key: string, param: string): string[] {
  return [`${key}=1`, `${key}[x]=1`, `${key}[]=1`, `${key}.x=1`, `${param}[${key}]=1`, `${param}.${key}=1`]
}

/** Query values as raw text, percent-encoding included (inserted unencoded). */
export const ODD_QUERY_VALUES = [
  '1e309',
  '-1e309',
  '-0',
  '5.0',
  '1e1',
  '+5',
  '0x10',
  'Infinity',
  'NaN',
  '%205',
  '%00',
  'a%00b',
  '%ZZ',
  '%',
  '%E0%A4%A',
  '',
  'true',
  'null',
  '%5B%5D',
  '%EF%BC%91',
  '9007199254740993',
  '-1',
  '5e-1',
  'x'.repeat(5000),
]

/** Raw JSON numbers, each syntactically valid JSON. */
export const ODD_NUMBERS = [
  '1e309',
  '-1e309',
  '-0',
  '5.0',
  '1e1',
  '1E+2',
  '0.1e1',
  '1e-400',
  '123456789012345678901234567890',
  '9007199254740993',
  '-0.0',
]

/** Byte runs that are not UTF-8: stray continuation, overlong, truncated, surrogate, 5-byte form. */
export const BAD_UTF8 = [
  [0xff, 0xfe],
  [0xc0, 0xaf],
  [0xe2, 0x82],
  [0xed, 0xa0, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0x80],
]

/** Strings that UTF-8 text columns may refuse: U+0000 and lone surrogates. */
export const NUL_LIKE = ['\u0000', 'a\u0000b', '\u0000\u0000\u0000', '\ud800', 'x\udfff']

/** 10 000 levels of nesting, as raw JSON text (JSON.stringify of such a value would recurse as deep). */
export const DEEP_JSON = [
  '['.repeat(10_000) + ']'.repeat(10_000),
  `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`,
]

export const HUGE_LENGTH = 1_100_000

/** Bodies that are not one JSON object: broken syntax, other JSON types, a BOM, two documents. */
export const MALFORMED_JSON = [
  '',
  ' ',
  '{',
  '{"a":1,}',
  "{'a':1}",
  '{"a":NaN}',
  '{"a":01}',
  '{"a":"\\x41"}',
  '[1,]',
  'undefined',
  'null',
  '[]',
  '"text"',
  '1',
  'true',
  '{"a":1}{"b":2}',
  '{"a" 1}',
  '\ufeff{}',
  '\u0000',
]

/** Raw values put under a prototype-named key in a JSON body. */
export const PROTO_VALUES = ['{"polluted":true}', '{"prototype":{"polluted":true}}', '1', '"x"', 'null', '[]']

/** Content-Type values for a JSON body: legitimate variants and wrong types. */
export const CONTENT_TYPES = [
  'application/json; charset=utf-8',
  'application/json;charset=UTF-8',
  'APPLICATION/JSON',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/json; foo=bar',
  'application/json, text/plain',
  'application/jsonp',
  'application/vnd.api+json',
  'text/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=----fuzz',
  'application/octet-stream',
  '',
  ';',
  'application/',
  '*/*',
]

/** Idempotency-Key values; undefined leaves the header out. */
export const IDEMPOTENCY_KEYS: Array<string | undefined> = [
  undefined,
  '',
  ' ',
  'a b',
  'x'.repeat(255),
  'x'.repeat(256),
  'clé',
  '<script>',
  'a/b',
  'k'.repeat(10_000),
  'fuzz-reused-key',
]

/** Authorization values built around the account's real key; undefined leaves the header out. */
export function authorizations(key: string): Array<string | undefined> {
  return [
    undefined,
    '',
    'Bearer',
    'Bearer ',
    `bearer ${key}`,
    `Bearer  ${key}`,
    `Bearer ${key} `,
    `Bearer\t${key}`,
    `Bearer ${key} extra`,
    `Bearer ${key},${key}`,
    `Bearer ${key.slice(0, -1)}`,
    `Bearer ${key}x`,
    `Basic ${Buffer.from('user:pass').toString('base64')}`,
    `Token ${key}`,
    `Bearer sk_test_${'A'.repeat(32)}`,
    `Bearer sk_live_${'A'.repeat(32)}`,
    `Bearer ${'x'.repeat(10_000)}`,
    `Bearer ${key.replace('test', 'live')}`,
  ]
}

/** Other headers clients send wrong. */
export const ODD_HEADERS: Array<Record<string, string>> = [
  { 'content-length': '99999' },
  { 'content-length': '1' },
  { 'content-length': 'abc' },
  { 'content-encoding': 'gzip' },
  { accept: 'application/xml' },
  { 'x-http-method-override': 'DELETE' },
  { 'user-agent': 'x'.repeat(10_000) },
  { 'x-forwarded-for': '127.0.0.1, ::1, not-an-ip' },
  { 'request-id': 'req_forged' },
]

/** Path segments that are not a valid id of `prefix`, made from `valid`, a segment as it goes in the URL. */
export function malformedIds(prefix: string, valid: string): string[] {
  const body = valid.slice(prefix.length + 1)
  const other = prefix === 'sub' ? 'tpl' : 'sub'
  return [
    `${other}_${body}`,
    `${prefix}_${body.slice(1)}`,
    `${prefix}_${body}a`,
    `${prefix.toUpperCase()}_${body}`,
    `${prefix}-${body}`,
    `${prefix}_${body.slice(1)}-`,
    valid.toUpperCase(),
    `${valid}%00`,
    '%00',
    `${prefix}_${'%2F'.repeat(24)}`,
    '%2e%2e',
    '..',
    '%E0%A4%A',
    '%ZZ',
    '%',
    `${prefix}_${'a'.repeat(5000)}`,
    'x'.repeat(4097),
    '%F0%9F%98%80'.repeat(24),
    encodeURIComponent(`${prefix}_${'é'.repeat(24)}`),
    `%20${valid}`,
    '[object Object]',
    '__proto__',
    'constructor',
    '',
  ]
}

/** URLs the SSRF guard refuses without any DNS lookup: private or loopback IP literals, other schemes. */
export const REFUSED_URLS = [
  'https://127.0.0.1/a.pdf',
  'https://10.0.0.7/a.pdf',
  'https://[::1]/a.pdf',
  'https://[::ffff:127.0.0.1]/a.pdf',
  'https://169.254.169.254/latest/meta-data/',
  'https://168.63.129.16/a.pdf',
  'https://0.0.0.0/a.pdf',
  'https://localhost/a.pdf',
  'https://user:pw@127.0.0.1/a.pdf',
  'http://example.invalid/a.pdf',
  'ftp://127.0.0.1/a.pdf',
  'file:///etc/passwd',
  'javascript:alert(1)',
  'not a url',
]
