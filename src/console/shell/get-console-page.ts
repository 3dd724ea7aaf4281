// GET /console, /console/ and /console/* (console contract): the console's HTML shell for every
// client-side route; /console itself redirects so relative asset and API paths resolve alike.
import type { FastifyReply } from 'fastify'
import { Type } from 'typebox'
import { ApiError } from '../../errors.ts'
import { type AnyRoute, defineRoute, type HandlerInput } from '../../http/define-route.ts'
import { consoleAssets } from './console-assets.ts'
import { CONSOLE_SECURITY_HEADERS, consoleSecurityHeaders } from './console-headers.ts'
import { consoleShellHtml } from './console-page.ts'
import { getConsoleAsset } from './get-console-asset.ts'

const HtmlPage = Type.Unsafe<string>({ type: 'string', contentMediaType: 'text/html' })

/** Paths the shell never answers: the console API, bundle files and sign-in links have their own routes. */
const NOT_PAGES = ['api/', 'assets/', 'sign-in/']

// The handler's reply is Fastify's own (register-route.ts); its declared type is narrower.
const fastifyReply = (input: Pick<HandlerInput<never>, 'reply'>) => input.reply as unknown as FastifyReply

async function shell(input: Pick<HandlerInput<never>, 'reply'>): Promise<string> {
  const html = consoleShellHtml(await consoleAssets())
  consoleSecurityHeaders(fastifyReply(input))
  input.reply.header('cache-control', 'no-store')
  input.reply.header('content-type', 'text/html; charset=utf-8')
  return html
}

export const redirectConsole = defineRoute({
  operationId: 'redirectConsole',
  method: 'GET',
  url: '/console',
  summary: 'The console, at /console/',
  tag: 'Console',
  auth: 'none',
  headers: CONSOLE_SECURITY_HEADERS,
  produces: 'text/html',
  schema: { response: { 200: HtmlPage } },
  errors: [],
  handler: (input) => {
    consoleSecurityHeaders(fastifyReply(input))
    input.reply.header('location', '/console/')
    input.reply.code(308)
    return ''
  },
})

export const getConsolePage = defineRoute({
  operationId: 'getConsolePage',
  method: 'GET',
  url: '/console/',
  summary: "The console's page (its script routes on the client)",
  tag: 'Console',
  auth: 'none',
  headers: CONSOLE_SECURITY_HEADERS,
  produces: 'text/html',
  schema: { response: { 200: HtmlPage } },
  errors: [],
  handler: (input) => shell(input),
})

export const getConsoleSubpage = defineRoute({
  operationId: 'getConsoleSubpage',
  method: 'GET',
  url: '/console/*',
  summary: "The console's page, at any of its client-side paths",
  tag: 'Console',
  auth: 'none',
  headers: CONSOLE_SECURITY_HEADERS,
  produces: 'text/html',
  schema: {
    params: Type.Object({ '*': Type.String({ maxLength: 2000 }) }, { additionalProperties: false }),
    response: { 200: HtmlPage },
  },
  errors: ['resource_not_found'],
  handler: (input) => {
    const rest = input.params['*']
    if (NOT_PAGES.some((prefix) => rest.startsWith(prefix))) {
      consoleSecurityHeaders(fastifyReply(input))
      throw new ApiError('resource_not_found', 'No such console route.')
    }
    return shell(input)
  },
})

export const CONSOLE_PAGE_ROUTES: AnyRoute[] = [
  redirectConsole,
  getConsolePage,
  getConsoleSubpage,
  getConsoleAsset,
]
