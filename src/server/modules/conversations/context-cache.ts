// Spec section 9's context cache: per personality, the prompt context built from its fields and
// derived data (persona prompt, greeting, conversation starters), kept 10 minutes, at most 10
// entries (least recently used goes first), the first 5 public personalities preloaded at
// start-up. It is only a cache: visibility is still checked in SQL on every request, and an entry
// is reused only while the personality's updated_at is unchanged, so an edit is seen at once; a
// change to its documents (which does not touch updated_at) drops the entry through the
// invalidation bus (conversations.module.ts), on every process.
// Measured rather than claimed: hits, misses and time to first token with and without it.
import { limits } from '../../../shared/limits';
import type { Clock } from '../../lib/clock';

export interface PersonaContext {
  personalityId: string;
  updatedAtMs: number;
  name: string;
  personaPrompt: string;
  greeting: string;
  starters: string[];
}

export interface PersonalityKey {
  id: string;
  updatedAt: Date;
}

interface Entry {
  context: PersonaContext;
  expiresAt: number;
}

export interface TtftStats {
  count: number;
  p50Ms: number | null;
  p95Ms: number | null;
  meanMs: number | null;
}

const SAMPLE_WINDOW = 500;

export function createContextCache(opts: { clock: Clock; ttlMs?: number; maxEntries?: number }) {
  const ttlMs = opts.ttlMs ?? limits.contextCacheTtlMs;
  const maxEntries = opts.maxEntries ?? limits.contextCacheMaxEntries;
  const entries = new Map<string, Entry>();
  const samples = { hit: [] as number[], miss: [] as number[] };
  let hits = 0;
  let misses = 0;
  let preloaded = 0;
  // Bumped by forget(): a build that read the documents before a change was announced must not
  // store what it read after the change dropped the entry (its starters would name a document
  // made private until the entry expired). Any forget counts: changes are rare, and the cost is one
  // more build later.
  let forgets = 0;

  function fresh(key: PersonalityKey): PersonaContext | undefined {
    const entry = entries.get(key.id);
    if (!entry) return undefined;
    if (entry.expiresAt <= opts.clock.now().getTime() || entry.context.updatedAtMs !== key.updatedAt.getTime()) {
      entries.delete(key.id);
      return undefined;
    }
    // Map order is recency order: move to the end.
    entries.delete(key.id);
    entries.set(key.id, entry);
    return entry.context;
  }

  function put(context: PersonaContext) {
    entries.delete(context.personalityId);
    entries.set(context.personalityId, { context, expiresAt: opts.clock.now().getTime() + ttlMs });
    while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
  }

  /**
   * Builds a context and keeps it, unless forget() ran while it was being built (what the build
   * read may predate the change that dropped the entry). Every build goes through here; `kept`
   * says whether it was stored.
   */
  async function buildAndKeep(build: () => Promise<PersonaContext>): Promise<{ context: PersonaContext; kept: boolean }> {
    const started = forgets;
    const context = await build();
    const kept = forgets === started;
    if (kept) put(context);
    return { context, kept };
  }

  return {
    /** The context for this personality; `build` runs on a miss. Counts the hit or miss. */
    async get(key: PersonalityKey, build: () => Promise<PersonaContext>): Promise<{ context: PersonaContext; hit: boolean }> {
      const cached = fresh(key);
      if (cached) {
        hits++;
        return { context: cached, hit: true };
      }
      misses++;
      const { context } = await buildAndKeep(build);
      return { context, hit: false };
    },

    /** Warms the cache without counting hits or misses (start-up preload). */
    async preload(keys: PersonalityKey[], build: (key: PersonalityKey) => Promise<PersonaContext>): Promise<number> {
      let n = 0;
      for (const key of keys.slice(0, limits.contextCachePreload)) {
        if (fresh(key)) continue;
        if ((await buildAndKeep(() => build(key))).kept) n++;
      }
      preloaded += n;
      return n;
    },

    /** Time from request to first streamed word, labelled by whether the context was cached. */
    recordTimeToFirstToken(ms: number, cacheHit: boolean) {
      const list = cacheHit ? samples.hit : samples.miss;
      list.push(ms);
      if (list.length > SAMPLE_WINDOW) list.shift();
    },

    has(personalityId: string): boolean {
      return entries.has(personalityId);
    },

    /**
     * Drops a personality's entry ("*": every entry). For changes that leave its updated_at alone:
     * its documents (the starters name its public documents' titles, so a document made private,
     * held or deleted must leave them at once, on every process).
     */
    forget(personalityId: string): void {
      forgets++;
      if (personalityId === '*') entries.clear();
      else entries.delete(personalityId);
    },

    stats() {
      const total = hits + misses;
      return {
        contextCache: {
          entries: entries.size,
          maxEntries,
          ttlSeconds: Math.round(ttlMs / 1000),
          preloaded,
          hits,
          misses,
          hitRate: total === 0 ? null : Math.round((hits / total) * 1000) / 1000,
        },
        timeToFirstToken: { withCache: summarize(samples.hit), withoutCache: summarize(samples.miss) },
      };
    },
  };
}

export type ContextCache = ReturnType<typeof createContextCache>;

export function summarize(values: number[]): TtftStats {
  if (values.length === 0) return { count: 0, p50Ms: null, p95Ms: null, meanMs: null };
  const sorted = [...values].sort((a, b) => a - b);
  const pick = (q: number) => round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!);
  return { count: values.length, p50Ms: pick(0.5), p95Ms: pick(0.95), meanMs: round(values.reduce((a, b) => a + b, 0) / values.length) };
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
