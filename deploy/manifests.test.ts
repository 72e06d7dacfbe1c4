import { describe, expect, test } from 'bun:test';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { Job } from 'kubernetes-models/batch/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1';
import { loadConfig } from '../core/config.ts';
import { EDGE_RUNTIME_ENV, WORKER_RUNTIME_ENV } from './runtime-env.ts';

// The deployment examples are validated against their published JSON Schemas (the Compose
// Specification's, and Kubernetes' OpenAPI schemas as packaged by kubernetes-models), so a
// typo or a wrong field is caught here without Docker or a cluster.
const dir = import.meta.dirname;
const read = (f: string) => readFileSync(join(dir, f), 'utf8');

const MODELS: Record<string, new (data: any) => { validate(): void }> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'batch/v1/Job': Job,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/Ingress': Ingress,
};
const K8S_FILES = ['config.yaml', 'secret.example.yaml', 'migrate-job.yaml', 'edge.yaml', 'worker.yaml'];
const resources = K8S_FILES.flatMap((f) => parseAllDocuments(read(`k8s/${f}`)).map((d) => ({ file: f, doc: d.toJSON() as Record<string, any> })));
const byKind = (kind: string) => resources.filter((r) => r.doc.kind === kind).map((r) => r.doc);

// The official Compose Specification schema, as shipped (and kept current) by the dclint package.
const composeSchema = JSON.parse(
  readFileSync(join(dirname(createRequire(import.meta.url).resolve('dclint/package.json')), 'schemas/compose.schema.json'), 'utf8'),
);
/** Compose durations are Go's (1m30s, 5s, 250ms), not ISO 8601. */
const GO_DURATION = /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/;

describe('compose.yaml', () => {
  const compose = parse(read('compose.yaml'), { merge: true });

  test('is valid against the Compose Specification schema', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addFormat('duration', GO_DURATION);
    // It names draft-07 by its https address, which Ajv registers under http: same draft.
    const validate = ajv.compile({ ...composeSchema, $schema: 'http://json-schema.org/draft-07/schema#' });
    const ok = validate(compose);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
    expect(validate({ services: { edge: { image: 'x', ports: 'not-a-list', restart: 'sometimes' } } })).toBe(false);
  });

  test('runs PostgreSQL, Redis, a one-shot migration, 2 edges behind a load balancer and 2 workers', () => {
    const s = compose.services;
    expect(Object.keys(s).sort()).toEqual(['balancer', 'edge', 'migrate', 'postgres', 'redis', 'worker']);
    expect(s.edge.deploy.replicas).toBe(2);
    expect(s.worker.deploy.replicas).toBe(2);
    expect(s.migrate.restart).toBe('no');
    expect(s.migrate.command).toEqual(['node_modules/.bin/bun', 'deploy/migrate.ts']);
    expect(s.edge.depends_on.migrate.condition).toBe('service_completed_successfully');
    expect(s.worker.depends_on.migrate.condition).toBe('service_completed_successfully');
    expect(compose.configs.nginx.content).toContain('server edge:3000 resolve');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: compose's own interpolation, not a template
    expect(s.balancer.ports).toEqual(['${BALANCER_BIND:-127.0.0.1}:8080:80']);
  });

  test('carries every setting a real site needs, and each is one the service reads', () => {
    const env = compose.services.edge.environment;
    for (const key of ['DATABASE_URL', 'REDIS_URL', 'SITE_URL', 'TRUST_PROXY', 'SMTP_URL', 'MAIL_FROM']) expect(env).toHaveProperty(key);
    expect(() => loadConfig({ ...env, SITE_URL: 'http://localhost:8080', SMTP_URL: '', MCP_ALLOWED_ORIGINS: '' })).not.toThrow();
  });
});

describe('Kubernetes manifests', () => {
  test('every resource is valid against the Kubernetes schema of its kind', () => {
    const problems: string[] = [];
    for (const { file, doc } of resources) {
      const Model = MODELS[`${doc.apiVersion}/${doc.kind}`];
      if (!Model) {
        problems.push(`${file}: no schema known for ${doc.apiVersion} ${doc.kind}`);
        continue;
      }
      try {
        new Model(doc).validate();
      } catch (err) {
        problems.push(`${file} ${doc.kind}/${doc.metadata?.name}: ${(err as Error).message}`);
      }
    }
    expect(problems).toEqual([]);
  });

  test('the validator rejects what Kubernetes would (so a pass above means something)', () => {
    const [edge] = byKind('Deployment');
    const broken = structuredClone(edge);
    broken.spec.replicas = 'two';
    expect(() => new Deployment(broken).validate()).toThrow();
    const noContainers = structuredClone(edge);
    delete noContainers.spec.template.spec.containers;
    expect(() => new Deployment(noContainers).validate()).toThrow();
  });

  test('edge and worker Deployments have readiness and liveness probes, requests and limits; a migration Job, an HPA and PDBs exist', () => {
    const deployments = byKind('Deployment');
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual(['directory-edge', 'directory-worker']);
    for (const d of deployments) {
      const [c] = d.spec.template.spec.containers;
      expect(c.readinessProbe.httpGet.path).toBe('/readyz');
      expect(c.livenessProbe.httpGet.path).toBe('/healthz');
      expect(c.resources.requests.cpu).toBeTruthy();
      expect(c.resources.limits.memory).toBeTruthy();
      expect(c.envFrom).toEqual([{ configMapRef: { name: 'directory-config' } }, { secretRef: { name: 'directory-env' } }]);
    }
    const [job] = byKind('Job');
    expect(job.spec.template.spec.containers[0].command).toEqual(['node_modules/.bin/bun', 'deploy/migrate.ts']);
    const [hpa] = byKind('HorizontalPodAutoscaler');
    expect(hpa.spec.scaleTargetRef.name).toBe('directory-edge');
    expect(
      byKind('PodDisruptionBudget')
        .map((p) => p.spec.selector.matchLabels.app)
        .sort(),
    ).toEqual(['directory-edge', 'directory-worker']);
  });

  test('config and secret together carry every setting a real site needs, and the service accepts them', () => {
    const [config] = byKind('ConfigMap');
    const [secret] = byKind('Secret');
    const env = { ...config.data, ...secret.stringData };
    for (const key of ['DATABASE_URL', 'REDIS_URL', 'SITE_URL', 'TRUST_PROXY', 'SMTP_URL', 'MAIL_FROM']) expect(env).toHaveProperty(key);
    const loaded = loadConfig(env);
    expect(loaded.trustProxy).toBe(true);
    expect(loaded.siteUrl).toBe('https://directory.example.com');
  });
});

/** The plain env of a Kubernetes Deployment's first container, by name. */
const deploymentEnv = (name: string) => {
  const d = byKind('Deployment').find((x) => x.metadata.name === name)!;
  return Object.fromEntries((d.spec.template.spec.containers[0].env ?? []).map((e: { name: string; value: string }) => [e.name, e.value]));
};
const npmScript = (name: string) => JSON.parse(readFileSync(join(dir, '..', 'package.json'), 'utf8')).scripts[name] as string;

test('the edge runs with its runtime settings wherever it starts: the image, compose, Kubernetes and npm run start:edge', () => {
  const pairs = Object.entries(EDGE_RUNTIME_ENV);
  expect(pairs.length).toBeGreaterThan(0);
  const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(read('Dockerfile'))![1]) as string[];
  expect(cmd[0]).toBe('env');
  expect(cmd.slice(-2)).toEqual(['node_modules/.bin/bun', 'api/main.ts']);
  for (const [k, v] of pairs) expect(cmd).toContain(`${k}=${v}`);
  // compose's edge keeps the image's command (the worker has its own).
  expect(parse(read('compose.yaml'), { merge: true }).services.edge.command).toBeUndefined();
  expect(deploymentEnv('directory-edge')).toEqual(EDGE_RUNTIME_ENV);
  for (const [k, v] of pairs) expect(npmScript('start:edge')).toContain(`${k}=${v}`);
});

test('the worker runs with its runtime settings wherever it starts: compose, Kubernetes and npm run start:worker', () => {
  const pairs = Object.entries(WORKER_RUNTIME_ENV);
  expect(pairs.length).toBeGreaterThan(0);
  const compose = parse(read('compose.yaml'), { merge: true }).services.worker;
  for (const [k, v] of pairs) expect(compose.environment[k]).toBe(v);
  expect(deploymentEnv('directory-worker')).toEqual(WORKER_RUNTIME_ENV);
  for (const [k, v] of pairs) expect(npmScript('start:worker')).toContain(`${k}=${v}`);
});

test('compose and Kubernetes run the same image', () => {
  const compose = parse(read('compose.yaml'), { merge: true });
  const composeImages = new Set(['edge', 'worker', 'migrate'].map((s) => compose.services[s].image));
  const k8sImages = new Set(
    resources.flatMap(({ doc }) => {
      const pod = doc.spec?.template?.spec ?? doc.spec?.jobTemplate?.spec?.template?.spec;
      return (pod?.containers ?? []).map((c: { image: string }) => c.image);
    }),
  );
  expect([...composeImages]).toEqual(['listing-directory:latest']);
  expect([...k8sImages]).toEqual(['listing-directory:latest']);
});

test('engines says what runs what: Node.js and npm install, the Bun that npm installs runs everything', () => {
  const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8'));
  // npm itself and the install scripts (Bun's, Deno's, patch-package) are all that Node.js runs.
  const image = read('Dockerfile').match(/^FROM node:(\d+)/m)?.[1];
  expect(Bun.semver.satisfies(`${image}.0.0`, pkg.engines.node)).toBe(true);
  // The runtime is the bun package itself, so engines.bun is its floor.
  expect(pkg.engines.bun).toBe(`>=${pkg.dependencies.bun.replace(/^\^/, '')}`);
  expect(Bun.semver.satisfies(Bun.version, pkg.engines.bun)).toBe(true);
  for (const script of ['start', 'start:edge', 'start:worker', 'ops', 'migrate', 'bench']) expect(pkg.scripts[script]).toMatch(/(^|\s)bun /);
});
