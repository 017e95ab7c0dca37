// Rules for personalities: who may create, read, change and delete, and how the form's voice
// choice is stored. No Hono here; the routes parse and map.
import type { Database } from '../../db/client';
import type { Viewer } from '../../auth/session';
import { AppError } from '../../lib/errors';
import { messages } from '../../../shared/messages';
import { effectiveSharingType, effectiveVoiceProvider } from '../../../shared/personality-rules';
import { buildVoiceSettings, voiceFromSettings } from '../../../shared/voice-rules';
import type { Personality } from '../../../shared/schemas/personality';
import type { VoiceProvider } from '../../../shared/limits';
import { editableFieldsOf, fieldsChangedSince, type EditableFields } from '../../../shared/personality-edit';
import * as repo from './personalities.repository';
import { loadOwnedPersonality, loadVisiblePersonality } from './personality-access';

export interface PersonalityFields {
  name?: string;
  description?: string | null;
  behaviorInstructions?: string | null;
  greeting?: string | null;
  voiceProvider?: VoiceProvider;
  voice?: string | null;
  agentId?: string | null;
  enablePhoneticTranscription?: boolean;
  /** The version the editor started from (ISO time); a later change refuses the save (409). */
  expectedUpdatedAt?: string;
  /** The values the editor started from, for the fields it changes (see shared/personality-edit.ts). */
  expected?: Partial<EditableFields>;
}

/** Called after a personality is deleted, so other domains (stored files) can clean up. */
export type PersonalityDeletedHook = (personality: repo.PersonalityRow) => Promise<void>;

export function toPersonalityDto(row: repo.PersonalityRow, viewerId: string | null): Personality {
  const provider = effectiveVoiceProvider(row.voiceProvider);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    behaviorInstructions: row.behaviorInstructions,
    greeting: row.greeting,
    hasAvatar: row.avatarKey !== null,
    voiceProvider: provider,
    voice: voiceFromSettings(provider, row.voiceSettings),
    voiceSettings: row.voiceSettings ?? null,
    agentId: row.agentId,
    customVoiceId: row.customVoiceId,
    sharingType: effectiveSharingType(row.sharingType, row.isPublic),
    isPublic: row.isPublic,
    displayOrder: row.displayOrder,
    isOwner: viewerId !== null && row.userId === viewerId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function createPersonalityService(db: Database, onDeleted: PersonalityDeletedHook[] = []) {
  return {
    async list(viewer: Viewer | null): Promise<Personality[]> {
      const rows = await repo.listVisible(db, viewer?.id ?? null);
      // Behavior instructions (up to 20,000 characters each) are for the owner's edit form: a
      // library of hundreds of public personalities leaves them out for everyone else.
      return rows.map((r) => {
        const dto = toPersonalityDto(r, viewer?.id ?? null);
        return dto.isOwner ? dto : { ...dto, behaviorInstructions: null };
      });
    },

    async get(viewer: Viewer | null, id: string): Promise<Personality> {
      const row = await loadVisiblePersonality(db, id, viewer?.id ?? null);
      return toPersonalityDto(row, viewer?.id ?? null);
    },

    async create(viewer: Viewer, input: PersonalityFields & { name: string }): Promise<Personality> {
      const provider = input.voiceProvider ?? 'default';
      const row = await repo.insertPersonality(db, {
        userId: viewer.id,
        name: input.name,
        description: input.description ?? null,
        behaviorInstructions: input.behaviorInstructions ?? null,
        greeting: input.greeting ?? null,
        voiceProvider: provider,
        voiceSettings: buildVoiceSettings(provider, input.voice, input.enablePhoneticTranscription, null),
        agentId: provider === 'elevenlabs' ? (input.agentId ?? null) : null,
        sharingType: 'private',
        isPublic: false,
      });
      return toPersonalityDto(row, viewer.id);
    },

    async update(viewer: Viewer, id: string, input: PersonalityFields): Promise<Personality> {
      const current = await loadOwnedPersonality(db, id, viewer.id);
      const stale = (row: repo.PersonalityRow) =>
        new AppError('CONFLICT', messages.personality.changedElsewhere, { details: { updatedAt: row.updatedAt.toISOString() } });
      const { expected } = input;
      if (expected) {
        const row = await db.transaction(async (tx) => {
          // Locked: the values compared are the ones this save overwrites (a save in between waits).
          const locked = await repo.findOwnedForUpdate(tx, id, viewer.id);
          if (!locked) return undefined;
          if (fieldsChangedSince(expected, editableFieldsOf(toPersonalityDto(locked, viewer.id))).length > 0) throw stale(locked);
          return repo.updateOwned(tx, id, viewer.id, changesFor(locked, input));
        });
        if (!row) throw new AppError('NOT_FOUND', messages.personality.notFound);
        return toPersonalityDto(row, viewer.id);
      }
      const expectedAt = input.expectedUpdatedAt ? new Date(input.expectedUpdatedAt) : undefined;
      if (expectedAt && expectedAt.getTime() !== current.updatedAt.getTime()) throw stale(current);
      const row = await repo.updateOwned(db, id, viewer.id, changesFor(current, input), expectedAt);
      // Changed between the read above and this write (or deleted).
      if (!row) throw expectedAt ? stale(current) : new AppError('NOT_FOUND', messages.personality.notFound);
      return toPersonalityDto(row, viewer.id);
    },

    async remove(viewer: Viewer, id: string): Promise<void> {
      const current = await loadOwnedPersonality(db, id, viewer.id);
      const deleted = await repo.deleteOwned(db, id, viewer.id);
      if (!deleted) throw new AppError('NOT_FOUND', messages.personality.notFound);
      for (const hook of onDeleted) await hook(current);
    },
  };
}

export type PersonalityService = ReturnType<typeof createPersonalityService>;

/** The row changes an edit makes, from the personality as it is now (voice settings are one column). */
function changesFor(current: repo.PersonalityRow, input: PersonalityFields): Partial<repo.NewPersonalityRow> {
  const provider = input.voiceProvider ?? effectiveVoiceProvider(current.voiceProvider);
  const changes: Partial<repo.NewPersonalityRow> = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.description !== undefined) changes.description = input.description;
  if (input.behaviorInstructions !== undefined) changes.behaviorInstructions = input.behaviorInstructions;
  if (input.greeting !== undefined) changes.greeting = input.greeting;
  const voiceTouched =
    input.voiceProvider !== undefined || input.voice !== undefined || input.enablePhoneticTranscription !== undefined;
  if (voiceTouched) {
    const previousVoice = voiceFromSettings(provider, current.voiceSettings);
    const providerChanged = provider !== effectiveVoiceProvider(current.voiceProvider);
    const voice = input.voice !== undefined ? input.voice : providerChanged ? null : previousVoice;
    const phonetic = input.enablePhoneticTranscription ?? current.voiceSettings?.enable_phonetic_transcription;
    changes.voiceProvider = provider;
    changes.voiceSettings = buildVoiceSettings(provider, voice, phonetic, current.customVoiceId);
  }
  if (input.agentId !== undefined) changes.agentId = input.agentId;
  if (provider !== 'elevenlabs' && input.voiceProvider !== undefined) changes.agentId = null;
  return changes;
}
