// Checks of the files in deploy/, as pure functions returning the problems they find, so
// deploy-files.test.ts can show each one passing on the real files and failing on a broken copy.
import { Deployment } from 'kubernetes-models/apps/v1/Deployment'
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget'
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap'
import { Namespace } from 'kubernetes-models/v1/Namespace'
import { Secret } from 'kubernetes-models/v1/Secret'
import { Service } from 'kubernetes-models/v1/Service'

// biome-ignore lint/suspicious/noExplicitAny: manifests and compose files are untyped YAML
export type Yaml = any

const MODELS: Record<string, new (data: Yaml) => { validate(): void }> = {
  'apps/v1 Deployment': Deployment,
  'policy/v1 PodDisruptionBudget': PodDisruptionBudget,
  'v1 ConfigMap': ConfigMap,
  'v1 Namespace': Namespace,
  'v1 Secret': Secret,
  'v1 Service': Service,
}

/**
 * Validates one object against the Kubernetes schema of its kind (kubernetes-models: types, enums,
 * required fields; it does not refuse unknown keys, hence the explicit security checks below).
 */
export function validateManifest(object: Yaml): string[] {
  const Model = MODELS[`${object?.apiVersion} ${object?.kind}`]
  if (!Model) return [`no schema for ${object?.apiVersion} ${object?.kind}`]
  try {
    new Model(object).validate()
    return []
  } catch (error) {
    return [`${object.kind} ${object.metadata?.name}: ${(error as Error).message}`]
  }
}

/** A pod template that meets the restricted profile the brief asks for, with writable /tmp and /data. */
export function podProblems(name: string, spec: Yaml): string[] {
  const problems: string[] = []
  const pod = spec?.securityContext ?? {}
  if (pod.runAsNonRoot !== true) problems.push(`${name}: runAsNonRoot is not true`)
  if (!(pod.runAsUser > 0)) problems.push(`${name}: runAsUser is not a non-root UID`)
  if (pod.seccompProfile?.type !== 'RuntimeDefault') problems.push(`${name}: seccomp is not RuntimeDefault`)
  const volumes = new Map<string, Yaml>((spec?.volumes ?? []).map((v: Yaml) => [v.name, v]))
  for (const container of [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])]) {
    const where = `${name}/${container.name}`
    const context = container.securityContext ?? {}
    if (context.readOnlyRootFilesystem !== true) problems.push(`${where}: root filesystem not read-only`)
    if (context.allowPrivilegeEscalation !== false) problems.push(`${where}: privilege escalation allowed`)
    if (JSON.stringify(context.capabilities?.drop) !== '["ALL"]') problems.push(`${where}: capabilities kept`)
    for (const path of ['/tmp', '/data']) {
      const mount = (container.volumeMounts ?? []).find((m: Yaml) => m.mountPath === path)
      if (!mount || !volumes.get(mount.name)?.emptyDir) problems.push(`${where}: ${path} is not an emptyDir`)
    }
  }
  return problems
}

export const COMPOSE_PARAPH_SERVICES = ['migrate', 'api-1', 'api-2', 'worker']
export const COMPOSE_SERVICES = ['postgres', 'redis', 'minio', 'mailpit', ...COMPOSE_PARAPH_SERVICES]
const SHARED = ['PARAPH_SECRET', 'PUBLIC_URL']

/** The compose file's structure: services, read-only Paraph containers, one source of shared values. */
export function composeProblems(compose: Yaml): string[] {
  const problems: string[] = []
  const services = compose?.services ?? {}
  for (const name of COMPOSE_SERVICES) if (!services[name]) problems.push(`no service ${name}`)
  const commands: Record<string, string> = {
    migrate: 'migrate',
    'api-1': 'serve --no-worker',
    'api-2': 'serve --no-worker',
    worker: 'worker',
  }
  const envFiles = new Set<string>()
  for (const name of COMPOSE_PARAPH_SERVICES) {
    const service = services[name]
    if (!service) continue
    if ((service.command ?? []).join(' ') !== commands[name])
      problems.push(`${name}: command is not ${commands[name]}`)
    if (service.read_only !== true) problems.push(`${name}: not read_only`)
    if (!(service.tmpfs ?? []).some((t: string) => t.split(':')[0] === '/tmp'))
      problems.push(`${name}: no tmpfs /tmp`)
    const files = (service.env_file ?? []).map((f: Yaml) => (typeof f === 'string' ? f : f.path))
    if (files.length !== 1) problems.push(`${name}: not exactly one env_file`)
    envFiles.add(files.join())
    for (const variable of SHARED) {
      if (service.environment?.[variable] !== undefined) problems.push(`${name}: sets ${variable} itself`)
    }
  }
  if (envFiles.size > 1)
    problems.push(`Paraph services read different env files: ${[...envFiles].join(' | ')}`)
  for (const [name, service] of Object.entries<Yaml>(services)) {
    for (const [dependency, rule] of Object.entries<Yaml>(service.depends_on ?? {})) {
      const target = services[dependency]
      if (!target) problems.push(`${name}: depends on unknown service ${dependency}`)
      else if (
        rule.condition === 'service_healthy' &&
        !target.healthcheck?.test &&
        !target.image?.includes('mailpit')
      )
        problems.push(`${name}: waits for ${dependency} to be healthy, which has no healthcheck`)
    }
  }
  for (const name of ['api-1', 'api-2', 'worker']) {
    if (services[name]?.depends_on?.migrate?.condition !== 'service_completed_successfully')
      problems.push(`${name}: does not wait for migrate to succeed`)
  }
  return problems
}

/** Variables compose interpolates (`${NAME…}`), which the env file example must define. */
export function interpolated(text: string): string[] {
  return [...new Set([...text.matchAll(/\$\{([A-Z_][A-Z0-9_]*)/g)].map((m) => m[1]!))]
}

/** `KEY=value` lines of an env file. */
export function envFile(text: string): Map<string, string> {
  const entries = text
    .split('\n')
    .filter((line) => /^[A-Z_][A-Z0-9_]*=/.test(line))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as [string, string])
  return new Map(entries)
}

/** The metric names the brief fixes (histograms also as _bucket, _sum and _count). */
const COUNTERS_AND_GAUGES = [
  'paraph_http_requests_total',
  'paraph_jobs',
  'paraph_jobs_oldest_age_seconds',
  'paraph_webhook_deliveries_total',
  'paraph_finalizations_total',
  'paraph_mails_total',
  'process_cpu_seconds_total',
  'process_resident_memory_bytes',
  'nodejs_eventloop_lag_seconds',
]
const HISTOGRAMS = ['paraph_http_request_duration_seconds', 'paraph_finalization_duration_seconds']
export const METRIC_NAMES = new Set([
  ...COUNTERS_AND_GAUGES,
  ...HISTOGRAMS.flatMap((h) => [`${h}_bucket`, `${h}_sum`, `${h}_count`]),
])

/** Every PromQL expression of a Grafana dashboard: panel targets and template variable queries. */
export function dashboardExpressions(dashboard: Yaml): string[] {
  const panels = (dashboard?.panels ?? []).flatMap((p: Yaml) => [p, ...(p.panels ?? [])])
  const targets = panels.flatMap((p: Yaml) => (p.targets ?? []).map((t: Yaml) => t.expr))
  const variables = (dashboard?.templating?.list ?? [])
    .filter((v: Yaml) => v.type === 'query')
    .map((v: Yaml) => (typeof v.query === 'string' ? v.query : v.query?.query))
  return [...targets, ...variables]
}

/** Metric names used by one expression (identifiers with a known metric prefix). */
export function metricsOf(expression: string): string[] {
  return [...expression.matchAll(/\b(?:paraph|process|nodejs)_[a-z0-9_]+/g)].map((m) => m[0])
}

export function dashboardProblems(dashboard: Yaml): string[] {
  const problems: string[] = []
  const expressions = dashboardExpressions(dashboard)
  if (expressions.length === 0) problems.push('no expressions')
  for (const expression of expressions) {
    const used = metricsOf(expression)
    if (used.length === 0) problems.push(`uses no metric: ${expression}`)
    for (const name of used)
      if (!METRIC_NAMES.has(name)) problems.push(`unknown metric ${name} in ${expression}`)
    // The job gauges are database-wide: every process reports the same value, so max, never sum.
    if (used.some((n) => n.startsWith('paraph_jobs')) && !/^max by \(kind, state\)/.test(expression))
      problems.push(`job gauge not under max by (kind, state): ${expression}`)
  }
  const all = expressions.flatMap(metricsOf).map((n) => n.replace(/_(bucket|sum|count)$/, ''))
  for (const name of [...COUNTERS_AND_GAUGES, ...HISTOGRAMS])
    if (!all.includes(name)) problems.push(`no panel uses ${name}`)
  return problems
}

export interface DockerStage {
  from: string
  name?: string
  instructions: Array<{ keyword: string; args: string }>
}

/** A Dockerfile's stages: continuation lines joined, comments dropped. */
export function dockerStages(text: string): DockerStage[] {
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
  const stages: DockerStage[] = []
  for (const line of lines) {
    const [keyword = '', ...rest] = line.split(/\s+/)
    const args = rest.join(' ')
    if (keyword.toUpperCase() === 'FROM') {
      const [from = '', as, name] = rest
      stages.push({ from, ...(as?.toUpperCase() === 'AS' && name ? { name } : {}), instructions: [] })
    } else stages.at(-1)?.instructions.push({ keyword: keyword.toUpperCase(), args })
  }
  return stages
}

export function dockerfileProblems(text: string): string[] {
  const problems: string[] = []
  const stages = dockerStages(text)
  if (stages.length < 2) return ['not multi-stage']
  if (!/^node:\$\{NODE_MAJOR\}-bookworm-slim$|^node:24-bookworm-slim$/.test(stages[0]!.from))
    problems.push(`builder is not FROM node:24-bookworm-slim (${stages[0]!.from})`)
  const runtime = stages.at(-1)!
  if (!/bookworm-slim$/.test(runtime.from)) problems.push(`runtime is not bookworm slim (${runtime.from})`)
  const all = (keyword: string) =>
    runtime.instructions.filter((i) => i.keyword === keyword).map((i) => i.args)
  const user = all('USER').at(-1)
  if (!user || /^(0|root)(:|$)/.test(user) || !/^\d+(:\d+)?$/.test(user))
    problems.push(`final USER is not a fixed non-root UID (${user})`)
  if (!all('HEALTHCHECK').some((h) => h.includes('/readyz'))) problems.push('no HEALTHCHECK on /readyz')
  if (!all('VOLUME').some((v) => v.includes('/data'))) problems.push('no VOLUME /data')
  const env = all('ENV').join(' ')
  for (const pair of ['DATA_DIR=/data', 'HOST=0.0.0.0'])
    if (!env.includes(pair)) problems.push(`no ENV ${pair}`)
  if (!all('EXPOSE').some((e) => e.split(' ').includes('8080'))) problems.push('8080 not exposed')
  if (!all('ENTRYPOINT').some((e) => e.includes('"node"') && e.includes('"bin/paraph.mjs"')))
    problems.push('ENTRYPOINT does not run node bin/paraph.mjs')
  if (all('CMD').at(-1) !== '["serve"]') problems.push('CMD is not ["serve"]')
  const installs = all('RUN').join(' ')
  for (const pkg of [
    'chromium',
    'qpdf',
    'poppler-utils',
    'fonts-dejavu-core',
    'fonts-noto-ui-core',
    'fonts-noto-cjk',
    'ca-certificates',
  ])
    if (!new RegExp(`\\s${pkg}(\\s|$)`).test(installs)) problems.push(`runtime does not install ${pkg}`)
  const builder = stages[0]!.instructions.map((i) => `${i.keyword} ${i.args}`).join('\n')
  for (const step of ['npm ci --omit=dev', 'npm run build'])
    if (!builder.includes(step)) problems.push(`builder does not run ${step}`)
  return problems
}
