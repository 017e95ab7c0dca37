// Test support: a fake of our API answering in its real JSON shapes (GET /api/me and the
// personality routes) through a stubbed global fetch, and a renderer with the app's providers.
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { vi } from 'vitest';
import type { ReactNode } from 'react';
import type { Personality } from '../../../../shared/schemas/personality';
import { toast } from 'sonner';
import { Toaster } from '../../../components/ui/sonner';

// jsdom lacks these; Radix Select calls them when it opens.
const proto = Element.prototype as unknown as Record<string, unknown>;
proto.hasPointerCapture ??= () => false;
proto.setPointerCapture ??= () => {};
proto.releasePointerCapture ??= () => {};
proto.scrollIntoView ??= () => {};
// Radix Checkbox measures itself.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

export type Viewer = { id: string; email: string; displayName: string } | null;

export const ada: NonNullable<Viewer> = { id: 'user-ada', email: 'ada@example.com', displayName: 'ada' };

let seq = 0;
export function makePersonality(overrides: Partial<Personality> = {}): Personality {
  seq += 1;
  return {
    id: `p-${seq}`,
    name: `Personality ${seq}`,
    description: null,
    behaviorInstructions: null,
    voiceProvider: 'default',
    voice: null,
    voiceSettings: { provider: 'default' },
    agentId: null,
    customVoiceId: null,
    greeting: null,
    hasAvatar: false,
    sharingType: 'private',
    isPublic: false,
    displayOrder: null,
    isOwner: true,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export interface ApiCall {
  method: string;
  path: string;
  body: unknown;
}

type Answer = { status: number; body: unknown };
export interface StubOptions {
  viewer: Viewer;
  personalities?: Personality[];
  /** Replace the answer to one call, e.g. to make it fail. */
  override?: (call: ApiCall) => Answer | undefined;
}

/** The request fields that appear unchanged in the answer's personality. */
function dtoFields(body: Record<string, unknown>): Partial<Personality> {
  const keys = ['name', 'description', 'behaviorInstructions', 'voiceProvider', 'voice', 'agentId'] as const;
  return Object.fromEntries(keys.filter((k) => k in body).map((k) => [k, body[k]]));
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export function stubApi({ viewer: initialViewer, personalities = [], override }: StubOptions) {
  let viewer = initialViewer;
  const calls: ApiCall[] = [];
  const store = [...personalities];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const call = { method, path: url.pathname, body };
    calls.push(call);
    const replaced = override?.(call);
    if (replaced) return json(replaced.status, replaced.body);
    const id = url.pathname.match(/^\/api\/personalities\/([^/]+)$/)?.[1];
    const leaving = method === 'DELETE' ? url.pathname.match(/^\/api\/personalities\/([^/]+)\/my-share$/)?.[1] : undefined;
    if (leaving) {
      const at = store.findIndex((p) => p.id === leaving && !p.isOwner && p.sharingType === 'shared');
      if (at < 0) return json(404, { error: { code: 'NOT_FOUND', message: 'Share not found' } });
      store.splice(at, 1);
      return json(200, { ok: true });
    }
    if (url.pathname === '/api/me') return json(200, { user: viewer, isAdmin: false });
    if (url.pathname === '/api/personalities' && method === 'GET') return json(200, { personalities: store });
    if (url.pathname === '/api/personalities' && method === 'POST') {
      const created = makePersonality({ ...dtoFields(body as Record<string, unknown>), isOwner: true });
      store.push(created);
      return json(201, { personality: created });
    }
    const index = store.findIndex((p) => p.id === id);
    if (id && index < 0) return json(404, { error: { code: 'NOT_FOUND', message: 'Personality not found' } });
    if (id && method === 'PATCH') {
      store[index] = { ...store[index], ...dtoFields(body as Record<string, unknown>) };
      return json(200, { personality: store[index] });
    }
    if (id && method === 'DELETE') {
      store.splice(index, 1);
      return json(200, { ok: true });
    }
    return json(404, { error: { code: 'NOT_FOUND', message: 'No such API route' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, store, fetchMock, setViewer: (next: Viewer) => void (viewer = next) };
}

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

/** Renders `ui` at `path` with a fresh query client, a router, a toaster and a location probe. */
export function renderWithApp(ui: ReactNode, { path = '/' }: { path?: string } = {}) {
  // Sonner keeps toasts in a module-level store and replays active ones to a new Toaster.
  toast.dismiss();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/" element={ui} />
          <Route path="/auth" element={<h1>Auth screen</h1>} />
        </Routes>
        <LocationProbe />
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
  return { ...result, queryClient };
}
