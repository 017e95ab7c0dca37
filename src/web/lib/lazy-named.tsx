import { lazy, type ComponentType } from 'react';

/**
 * React.lazy for a named export: the module (and the libraries only it uses) becomes its own
 * chunk, fetched the first time the component renders. This keeps the first page's JavaScript
 * small (the admin dashboard, conversation, documents and auth screens load when opened).
 */
export function lazyNamed<M, K extends keyof M>(load: () => Promise<M>, name: K): M[K] {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- React.lazy's own bound
  return lazy(async () => ({ default: (await load())[name] as unknown as ComponentType<any> })) as unknown as M[K];
}
