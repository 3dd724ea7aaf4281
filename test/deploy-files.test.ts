// The container and cluster files in deploy/: Kubernetes manifests validated against the
// Kubernetes schemas (kubernetes-models), the compose file's structure, the Grafana dashboard's
// metric names and the Dockerfile's stages. Each check is also shown refusing a broken copy.
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { parse, parseAllDocuments } from 'yaml'
import {
  COMPOSE_PARAPH_SERVICES,
  composeProblems,
  dashboardProblems,
  dockerfileProblems,
  dockerStages,
  envFile,
  interpolated,
  podProblems,
  validateManifest,
  type Yaml,
} from './deploy-checks.ts'

const DEPLOY = join(import.meta.dirname, '../deploy')
const K8S = join(DEPLOY, 'kubernetes')
const read = (path: string) => readFileSync(join(DEPLOY, path), 'utf8')

/** Every object of every manifest in deploy/kubernetes but the kustomization, with its file. */
function manifests(): Array<{ file: string; object: Yaml }> {
  return readdirSync(K8S)
    .filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
    .flatMap((file) =>
      parseAllDocuments(readFileSync(join(K8S, file), 'utf8')).map((doc) => {
        assert.deepEqual(doc.errors, [], `${file} is not valid YAML`)
        return { file, object: doc.toJS() }
      }),
    )
}

const byKind = (kind: string) => manifests().filter((m) => m.object.kind === kind)
const named = (kind: string, name: string) => {
  const found = byKind(kind).find((m) => m.object.metadata.name === name)
  assert.ok(found, `no ${kind} ${name}`)
  return found.object
}

describe('deploy/kubernetes', () => {
  it('every object validates against the Kubernetes schema of its kind', () => {
    const all = manifests()
    assert.deepEqual(
      all.flatMap((m) => validateManifest(m.object)),
      [],
    )
    const kinds = all.map((m) => m.object.kind).sort()
    assert.deepEqual(kinds, [
      'ConfigMap',
      'Deployment',
      'Deployment',
      'Namespace',
      'PodDisruptionBudget',
      'Secret',
      'Service',
    ])
  })

  it('a broken object is refused: a wrong type, a missing required field, an unknown kind', () => {
    const api = named('Deployment', 'paraph-api')
    const wrongType = structuredClone(api)
    wrongType.spec.replicas = 'two'
    assert.match(validateManifest(wrongType).join(), /replicas must be integer/)
    const noSelector = structuredClone(api)
    delete noSelector.spec.selector
    assert.match(validateManifest(noSelector).join(), /selector/)
    const badProbe = structuredClone(api)
    badProbe.spec.template.spec.containers[0].readinessProbe.httpGet.port = { name: 'http' }
    assert.notDeepEqual(validateManifest(badProbe), [])
    assert.deepEqual(validateManifest({ apiVersion: 'v1', kind: 'Pods' }), ['no schema for v1 Pods'])
  })

  it('the kustomization lists exactly the manifests of the folder and renames the image they use', () => {
    const kustomization = parse(readFileSync(join(K8S, 'kustomization.yaml'), 'utf8'))
    const files = readdirSync(K8S).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
    assert.deepEqual([...kustomization.resources].sort(), files.sort())
    const images = byKind('Deployment').flatMap((d) =>
      [...(d.object.spec.template.spec.initContainers ?? []), ...d.object.spec.template.spec.containers].map(
        (c: Yaml) => c.image,
      ),
    )
    assert.deepEqual([...new Set(images)], [kustomization.images[0].name])
  })

  it('every pod: non-root fixed UID, read-only root, no capabilities, RuntimeDefault seccomp, /tmp and /data on emptyDirs', () => {
    for (const { object } of byKind('Deployment')) {
      assert.deepEqual(podProblems(object.metadata.name, object.spec.template.spec), [])
    }
    const loosened = structuredClone(named('Deployment', 'paraph-worker').spec.template.spec)
    loosened.containers[0].securityContext.readOnlyRootFilesystem = false
    delete loosened.securityContext.runAsNonRoot
    loosened.volumes = loosened.volumes.filter((v: Yaml) => v.name !== 'tmp')
    assert.deepEqual(podProblems('worker', loosened), [
      'worker: runAsNonRoot is not true',
      'worker/worker: root filesystem not read-only',
      'worker/worker: /tmp is not an emptyDir',
    ])
  })

  it('API: 2 replicas, migrations in an init container, /healthz and /readyz probes, requests and limits', () => {
    const api = named('Deployment', 'paraph-api')
    assert.equal(api.spec.replicas, 2)
    const pod = api.spec.template.spec
    assert.deepEqual(pod.initContainers[0].args, ['migrate'])
    const [container] = pod.containers
    assert.deepEqual(container.args, ['serve', '--no-worker'])
    assert.equal(container.livenessProbe.httpGet.path, '/healthz')
    assert.equal(container.readinessProbe.httpGet.path, '/readyz')
    for (const c of [...pod.initContainers, ...pod.containers]) {
      assert.ok(c.resources.requests.cpu && c.resources.requests.memory, `${c.name}: no requests`)
      assert.ok(c.resources.limits.memory, `${c.name}: no memory limit`)
    }
    assert.deepEqual(named('Deployment', 'paraph-worker').spec.template.spec.containers[0].args, ['worker'])
  })

  it('the Service and the PodDisruptionBudget select the API pods, and every pod reads the ConfigMap and the Secret', () => {
    const labels = named('Deployment', 'paraph-api').spec.template.metadata.labels
    const selects = (selector: Record<string, string>) =>
      Object.entries(selector).every(([k, v]) => labels[k] === v)
    assert.ok(selects(named('Service', 'paraph').spec.selector))
    assert.ok(selects(named('PodDisruptionBudget', 'paraph-api').spec.selector.matchLabels))
    assert.equal(named('PodDisruptionBudget', 'paraph-api').spec.minAvailable, 1)
    for (const { object } of byKind('Deployment')) {
      for (const c of object.spec.template.spec.containers) {
        const sources = c.envFrom.map((e: Yaml) => e.configMapRef?.name ?? e.secretRef?.name)
        assert.deepEqual(sources, ['paraph-config', 'paraph-secrets'], `${object.metadata.name}/${c.name}`)
      }
    }
    const secret = named('Secret', 'paraph-secrets').stringData
    assert.ok(secret.PARAPH_SECRET && secret.DATABASE_URL.startsWith('postgres://'))
  })
})

describe('deploy/compose.yaml', () => {
  const text = read('compose.yaml')
  const compose = parse(text, { merge: true })

  it('has the services of the brief, every Paraph one read-only with one shared env file', () => {
    assert.deepEqual(composeProblems(compose), [])
    for (const name of COMPOSE_PARAPH_SERVICES) {
      assert.deepEqual(compose.services[name].env_file, [{ path: 'paraph.env', required: true }])
    }
  })

  it('refuses a copy with a writable API, its own secret, a missing worker or an unknown dependency', () => {
    const broken = structuredClone(compose)
    broken.services['api-2'].read_only = false
    broken.services['api-2'].environment = { ...broken.services['api-2'].environment, PARAPH_SECRET: 'x' }
    broken.services['api-1'].depends_on = { ...broken.services['api-1'].depends_on, nosuch: {} }
    delete broken.services.worker
    assert.deepEqual(composeProblems(broken), [
      'no service worker',
      'api-2: not read_only',
      'api-2: sets PARAPH_SECRET itself',
      'api-1: depends on unknown service nosuch',
      'worker: does not wait for migrate to succeed',
    ])
  })

  it('the env file example defines PUBLIC_URL, a long enough PARAPH_SECRET and every variable compose interpolates', () => {
    const example = envFile(read('paraph.env.example'))
    assert.ok((example.get('PARAPH_SECRET') ?? '').length >= 32)
    assert.match(example.get('PUBLIC_URL') ?? '', /^https?:\/\//)
    assert.deepEqual(
      interpolated(text).filter((v) => !example.has(v)),
      [],
    )
  })
})

describe('deploy/grafana-dashboard.json', () => {
  const dashboard = JSON.parse(read('grafana-dashboard.json'))

  it('parses, and every expression uses only the fixed metric names, job gauges under max by (kind, state)', () => {
    assert.deepEqual(dashboardProblems(dashboard), [])
  })

  it('refuses a foreign metric and a summed job gauge', () => {
    const broken = structuredClone(dashboard)
    const targets = broken.panels.find((p: Yaml) => p.targets).targets
    targets.push({ expr: 'rate(paraph_http_requests_count[5m])' }, { expr: 'sum by (kind) (paraph_jobs)' })
    assert.deepEqual(dashboardProblems(broken), [
      'unknown metric paraph_http_requests_count in rate(paraph_http_requests_count[5m])',
      'job gauge not under max by (kind, state): sum by (kind) (paraph_jobs)',
    ])
  })
})

describe('deploy/Dockerfile', () => {
  const text = read('Dockerfile')

  it('builds in a node:24 bookworm stage and runs non-root on bookworm slim with a /readyz HEALTHCHECK', () => {
    assert.deepEqual(dockerfileProblems(text), [])
    assert.deepEqual(
      dockerStages(text).map((s) => s.name),
      ['builder', 'runtime'],
    )
  })

  it('refuses a copy running as root without a health check', () => {
    const broken = text.replace(/^USER .*$/m, 'USER root').replace(/^HEALTHCHECK[^\n]*\n[^\n]*\n/m, '')
    assert.deepEqual(dockerfileProblems(broken), [
      'final USER is not a fixed non-root UID (root)',
      'no HEALTHCHECK on /readyz',
    ])
  })

  it('the build context (the repository root) leaves out node_modules, .git and local data', () => {
    const ignored = readFileSync(join(DEPLOY, '../.dockerignore'), 'utf8').split('\n')
    for (const entry of ['node_modules', '.git', 'data', 'dist', '.tmp'])
      assert.ok(ignored.includes(entry), entry)
  })
})
