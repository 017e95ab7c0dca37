// Character cards: preview and import (signed in; the new personality is private to the
// importer), export (owner only), and the avatar image (whoever may see the personality).
// An import is all or nothing: if any step after the personality row fails, the row (and with it,
// by cascade, its document, chunks and jobs) and its stored files are removed again.
import crypto from 'node:crypto';
import type { Database } from '../../db/client';
import type { Viewer } from '../../auth/session';
import type { Logger } from '../../lib/logger';
import { AppError } from '../../lib/errors';
import { BlobNotFoundError, personalityPrefix, type BlobStorage } from '../../storage/storage';
import { messages } from '../../../shared/messages';
import type { CardPreview } from '../../../shared/schemas/character-card';
import type { Personality } from '../../../shared/schemas/personality';
import { insertPersonality, type PersonalityRow } from '../personalities/personalities.repository';
import { loadVisiblePersonality } from '../personalities/personality-access';
import { toPersonalityDto } from '../personalities/personalities.service';
import type { DocumentService } from '../documents/documents.service';
import { CardError, CardTooLongError, parseCard, toPreview, type ParsedCard } from './card-parse';
import { lorebookText } from './card-lorebook';
import { cardJson, cardPng, exportFileName, type ExportSource } from './card-export';
import * as repo from './character-cards.repository';

export interface CharacterCardDeps {
  db: Database;
  storage: BlobStorage;
  documents: DocumentService;
  logger: Logger;
}

export interface CardDownload {
  fileName: string;
  contentType: string;
  body: Uint8Array | string;
}

function parseOrReject(bytes: Uint8Array): ParsedCard {
  try {
    return parseCard(bytes);
  } catch (err) {
    // A card too long for a personality is still a card: it gets its own message.
    if (err instanceof CardTooLongError) throw new AppError('BAD_REQUEST', messages.cards.tooLong(err.message));
    if (err instanceof CardError) throw new AppError('BAD_REQUEST', messages.cards.notACard(err.message));
    throw err;
  }
}

export function lorebookFileName(name: string): string {
  return `${name.replace(/[\\/\u0000-\u001f]+/g, ' ').trim().slice(0, 200)} lorebook.txt`;
}

export function createCharacterCardService(deps: CharacterCardDeps) {
  const { db, storage, documents, logger } = deps;

  function exportSource(row: PersonalityRow): ExportSource {
    return {
      name: row.name,
      description: row.description,
      behaviorInstructions: row.behaviorInstructions,
      greeting: row.greeting,
      // The lorebook goes out only while its document exists (the foreign key clears the id when it is deleted).
      book: row.lorebookDocumentId && row.cardBook ? row.cardBook : null,
      extras: row.cardExtras ?? null,
    };
  }

  return {
    preview(viewer: Viewer, bytes: Uint8Array): CardPreview {
      void viewer;
      return toPreview(parseOrReject(bytes));
    },

    async import(viewer: Viewer, bytes: Uint8Array): Promise<Personality> {
      const card = parseOrReject(bytes);
      const id = crypto.randomUUID();
      const prefix = personalityPrefix(viewer.id, id);
      let created: PersonalityRow | undefined;
      try {
        let avatarKey: string | null = null;
        if (card.image) {
          avatarKey = `${prefix}avatar_${crypto.randomBytes(4).toString('hex')}.png`;
          await storage.put(avatarKey, card.image);
        }
        created = await insertPersonality(db, {
          id,
          userId: viewer.id,
          name: card.name,
          description: card.description || null,
          behaviorInstructions: card.behaviorInstructions || null,
          greeting: card.greeting || null,
          avatarKey,
          cardBook: card.book,
          cardExtras: card.extras,
          voiceProvider: 'default',
          voiceSettings: { provider: 'default' },
          sharingType: 'private',
          isPublic: false,
        });
        const text = lorebookText(card.book);
        if (text) {
          // Through the documents service, so it is chunked, indexed and cited like any upload.
          const doc = await documents.addStored(created, {
            fileName: lorebookFileName(card.name),
            kind: 'text',
            bytes: Buffer.from(text, 'utf8'),
            isPrivate: false,
            content: text,
          });
          await repo.setLorebookDocument(db, id, doc.id);
          created = { ...created, lorebookDocumentId: doc.id };
        }
        return toPersonalityDto(created, viewer.id);
      } catch (err) {
        if (created) await repo.deleteImported(db, id, viewer.id).catch((e: unknown) => logger.error('could not undo a failed card import', e));
        await storage.deletePrefix(prefix).catch(() => {});
        throw err;
      }
    },

    async export(viewer: Viewer, personalityId: string, format: 'json' | 'png'): Promise<CardDownload> {
      // Owner only, whatever the sharing level: see docs/architecture.md (character cards). Those
      // who may see it but do not own it get 403 with a message about exporting (an export
      // changes nothing); anyone else 404, as for every personality they may not see.
      const row = await loadVisiblePersonality(db, personalityId, viewer.id);
      if (row.userId !== viewer.id) throw new AppError('FORBIDDEN', messages.cards.exportOwnerOnly);
      const src = exportSource(row);
      if (format === 'json') return { fileName: exportFileName(row.name, 'json'), contentType: 'application/json; charset=utf-8', body: cardJson(src) };
      if (!row.avatarKey) throw new AppError('NOT_FOUND', messages.cards.noImage);
      const avatar = await storage.get(row.avatarKey);
      return { fileName: exportFileName(row.name, 'png'), contentType: 'image/png', body: cardPng(avatar, src) };
    },

    async avatar(viewer: Viewer | null, personalityId: string): Promise<Buffer> {
      const row = await loadVisiblePersonality(db, personalityId, viewer?.id ?? null);
      if (!row.avatarKey) throw new AppError('NOT_FOUND', messages.errors.notFound);
      try {
        return await storage.get(row.avatarKey);
      } catch (err) {
        if (err instanceof BlobNotFoundError) throw new AppError('NOT_FOUND', messages.errors.notFound);
        throw err;
      }
    },
  };
}

export type CharacterCardService = ReturnType<typeof createCharacterCardService>;
