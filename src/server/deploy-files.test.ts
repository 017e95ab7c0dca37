// The deploy/ folder (Compose, Caddy, Dockerfile) cannot run here (no Docker in CI), so its parts
// are checked against each other and against the app: every setting the app containers get is
// one the server reads, the addresses point at services that exist, the proxy balances over every
// app process and probes a real health route, the trusted proxy is the proxy's fixed address, and
// every required variable is in .env.example. A renamed setting or service fails here.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CONFIG_VARIABLES, loadConfig } from './config';
import { startTestServer } from './test-support/test-server';

const deployDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../deploy');
const read = (name: string) => fs.readFileSync(path.join(deployDir, name), 'utf8');

interface Service {
  environment?: Record<string, string>;
  depends_on?: Record<string, unknown> | string[];
  networks?: Record<string, { ipv4_address?: string }> | string[];
  build?: { context: string; dockerfile: string };
  command?: string | string[];
}
const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, Service>; networks: Record<string, { ipam: { config: { subnet: string }[] } }> };
const services = compose.services;
const appServices = Object.entries(services).filter(([, s]) => s.build?.dockerfile === 'deploy/Dockerfile');
const caddyfile = read('Caddyfile');
const dockerfile = read('Dockerfile');
const envExample = read('.env.example');

/** "${NAME:-default}" -> default, "${NAME:?message}" / "${NAME}" -> a stand-in value. */
function resolve(value: string): string {
  return String(value).replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_m, name: string, op?: string, rest?: string) => (op === '-' ? rest ?? '' : `${name.toLowerCase()}-value`));
}

describe('deploy/ files agree with each other and with the app', () => {
  it('runs at least two identical app processes, each given only settings the server reads', () => {
    expect(appServices.length).toBeGreaterThanOrEqual(2);
    const [, first] = appServices[0]!;
    for (const [, app] of appServices) {
      expect(app.environment).toEqual(first.environment);
      for (const name of Object.keys(app.environment ?? {})) expect(CONFIG_VARIABLES, `${name} is not a setting the server reads`).toContain(name);
    }
    // The settings as the containers get them make a valid configuration on PostgreSQL and S3.
    const env = Object.fromEntries(Object.entries(first.environment ?? {}).map(([k, v]) => [k, resolve(v)]));
    const config = loadConfig({ ...env, NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(40) });
    expect(config.s3).toMatchObject({ bucket: env.S3_BUCKET, forcePathStyle: true });
    expect(env.AUTH_SECRET, 'one secret shared by every process').toMatch(/^auth_secret-value$/);
    expect(first.environment?.AUTH_SECRET).toMatch(/\$\{AUTH_SECRET:\?/);
  });

  it('points the database and storage at services in the file, and creates the bucket the apps use', () => {
    const env = appServices[0]![1].environment!;
    const dbHost = new URL(resolve(env.DATABASE_URL!)).hostname;
    const s3Host = new URL(env.S3_ENDPOINT!).hostname;
    expect(Object.keys(services)).toEqual(expect.arrayContaining([dbHost, s3Host]));
    expect(JSON.stringify(services[dbHost]!.environment)).toContain('POSTGRES_PASSWORD');
    const bucketInit = Object.values(services).find((s) => JSON.stringify(s.command ?? '').includes(' mb '));
    expect(JSON.stringify(bucketInit?.command)).toContain(`local/${env.S3_BUCKET}`);
    for (const [, app] of appServices) expect(Object.keys(app.depends_on ?? {})).toEqual(expect.arrayContaining([dbHost]));
  });

  it('balances over every app process at the port the image listens on, probing a route that answers', async () => {
    const port = /ENV[^\n]*\bPORT=(\d+)/.exec(dockerfile)?.[1];
    expect(port).toBeDefined();
    const upstreams = /reverse_proxy ([^{]+)\{/.exec(caddyfile)?.[1]!.trim().split(/\s+/);
    expect(upstreams?.sort()).toEqual(appServices.map(([name]) => `${name}:${port}`).sort());
    const healthUri = /health_uri (\S+)/.exec(caddyfile)?.[1];
    const server = await startTestServer();
    try {
      expect((await server.client().raw(healthUri!)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('trusts forwarded addresses only from the proxy, whose address is fixed inside the network', () => {
    const trusted = resolve(appServices[0]![1].environment!.TRUSTED_PROXIES!);
    const proxy = Object.values(services).find((s) => !Array.isArray(s.networks) && Object.values(s.networks ?? {}).some((n) => n?.ipv4_address));
    const address = Object.values(proxy!.networks as Record<string, { ipv4_address?: string }>).find((n) => n?.ipv4_address)!.ipv4_address!;
    expect(trusted).toBe(address);
    const subnet = Object.values(compose.networks)[0]!.ipam.config[0]!.subnet;
    expect(address.split('.').slice(0, 3).join('.')).toBe(subnet.split('/')[0]!.split('.').slice(0, 3).join('.'));
  });

  it('lists every variable the file requires in .env.example, and builds the image as the README does', () => {
    const required = [...read('compose.yaml').matchAll(/\$\{(\w+):\?/g)].map((m) => m[1]!);
    const listed = [...envExample.matchAll(/^(\w+)=/gm)].map((m) => m[1]);
    for (const name of new Set(required)) expect(listed, `${name} is missing from deploy/.env.example`).toContain(name);
    const pkg = JSON.parse(fs.readFileSync(path.join(deployDir, '../package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(dockerfile).toContain('RUN npm ci');
    expect(dockerfile).toContain('RUN npm run build');
    const cmd = JSON.parse(/CMD (\[.*\])/.exec(dockerfile)![1]!) as string[];
    expect(cmd.join(' ')).toBe(pkg.scripts.start);
  });

  it('keeps local secrets, data and the host\'s node_modules out of the image (the build context is the repository root)', () => {
    const ignored = fs.readFileSync(path.join(deployDir, '..', '.dockerignore'), 'utf8').split('\n').map((l) => l.trim());
    expect(dockerfile).toContain('COPY . .');
    for (const entry of ['node_modules', 'data', '**/.env', '.git', 'dist', 'scratch']) expect(ignored).toContain(entry);
  });
});

