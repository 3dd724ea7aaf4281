// Operational probes outside /v1 and without auth: liveness and readiness for load balancers.
import { Type } from 'typebox'
import { ping } from '../db/database.ts'
import { ApiError } from '../errors.ts'
import { defineRoute } from './define-route.ts'

export const getLiveness = defineRoute({
  operationId: 'getLiveness',
  method: 'GET',
  url: '/healthz',
  summary: 'Liveness: the process answers',
  tag: 'Operations',
  auth: 'none',
  schema: { response: { 200: Type.Object({ status: Type.Literal('ok') }) } },
  errors: [],
  handler: async () => ({ status: 'ok' as const }),
})

export const getReadiness = defineRoute({
  operationId: 'getReadiness',
  method: 'GET',
  url: '/readyz',
  summary: 'Readiness: the database answers',
  tag: 'Operations',
  auth: 'none',
  schema: { response: { 200: Type.Object({ status: Type.Literal('ready') }) } },
  errors: ['not_ready'],
  handler: async (_input, { db }) => {
    try {
      await ping(db)
    } catch {
      throw new ApiError('not_ready', 'The database does not answer.')
    }
    return { status: 'ready' as const }
  },
})
