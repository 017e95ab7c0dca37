// Builds a personality's prompt context (persona prompt, greeting, starters) through the context
// cache, and preloads the first public personalities at start-up.
import type { Database } from '../../db/client';
import { limits } from '../../../shared/limits';
import { listVisible, type PersonalityRow } from '../personalities/personalities.repository';
import type { ContextCache, PersonaContext } from './context-cache';
import { buildPersonaPrompt } from './prompt-builder';
import { documentTitles } from './retrieval.repository';
import { buildGreeting, buildStarters } from './starters';
import { invalidationBus } from '../../lib/invalidation-bus';

/**
 * The greeting that opens a chat: the personality's own when set, with the card placeholders
 * {{char}} (its name) and {{user}} (the person, unnamed here: "you") filled in.
 */
export function personaGreeting(row: Pick<PersonalityRow, 'name' | 'greeting'>): string {
  const own = row.greeting?.trim();
  if (!own) return buildGreeting(row.name);
  return own.replace(/\{\{char\}\}/gi, row.name).replace(/\{\{user\}\}/gi, 'you');
}

export function createPersonaContexts(db: Database, cache: ContextCache) {
  async function build(row: PersonalityRow): Promise<PersonaContext> {
    // Only public documents' titles: the context is shared by everyone who may chat.
    const titles = await documentTitles(db, { personalityId: row.id, viewerId: null }, 5);
    return {
      personalityId: row.id,
      updatedAtMs: row.updatedAt.getTime(),
      name: row.name,
      personaPrompt: buildPersonaPrompt(row),
      // The personality's own greeting (a card's first_mes) when set, else the generic one.
      greeting: personaGreeting(row),
      starters: buildStarters({ name: row.name, description: row.description, documentTitles: titles }),
    };
  }

  return {
    cache,
    async get(row: PersonalityRow) {
      // A change to its documents made through another process may still be in transit (its
      // starters name public documents): hear it first, or rebuild when that cannot be known.
      if (cache.has(row.id) && !(await invalidationBus().caughtUp())) cache.forget(row.id);
      return cache.get({ id: row.id, updatedAt: row.updatedAt }, () => build(row));
    },
    /** Spec section 9: the first public personalities (library order) are loaded at start-up. */
    async preload(): Promise<{ loaded: number; personalityIds: string[] }> {
      const rows = (await listVisible(db, null)).slice(0, limits.contextCachePreload);
      const byId = new Map(rows.map((r) => [r.id, r]));
      const loaded = await cache.preload(
        rows.map((r) => ({ id: r.id, updatedAt: r.updatedAt })),
        (key) => build(byId.get(key.id)!),
      );
      return { loaded, personalityIds: rows.map((r) => r.id) };
    },
  };
}

export type PersonaContexts = ReturnType<typeof createPersonaContexts>;
