// Starts a worker thread on a TypeScript module. The server runs TypeScript through tsx, and a
// worker does not inherit the loader a module needs: the worker first registers tsx's loader
// (its ESM entry, named from the package folder: the CommonJS entry cannot register in a worker),
// then imports the module.
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import path from 'node:path';

const tsxApi = pathToFileURL(path.join(path.dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;

export function startTsWorker(moduleUrl: string, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((m) => { m.register(); return import(${JSON.stringify(moduleUrl)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}
