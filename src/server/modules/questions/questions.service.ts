// The owner's log of questions asked in chats (spec: personality_questions). Logging is
// best-effort: a failure is logged and never fails the chat that asked.
import type { Database } from '../../db/client';
import type { Viewer } from '../../auth/session';
import type { Clock } from '../../lib/clock';
import type { Logger } from '../../lib/logger';
import { AppError } from '../../lib/errors';
import { messages } from '../../../shared/messages';
import { limits } from '../../../shared/limits';
import type { PersonalityQuestion } from '../../../shared/schemas/conversations';
import { loadOwnedPersonality } from '../personalities/personality-access';
import * as repo from './questions.repository';

export function createQuestionService(db: Database, clock: Clock, logger: Logger) {
  return {
    /** Never throws. */
    async log(personalityId: string, questionText: string, userId: string | null): Promise<void> {
      try {
        await repo.insertQuestion(db, { personalityId, questionText, userId, askedAt: clock.now() });
      } catch (err) {
        logger.warn(`could not log a question for personality ${personalityId}`, err instanceof Error ? err.message : err);
      }
    },

    async list(viewer: Viewer, personalityId: string): Promise<PersonalityQuestion[]> {
      await loadOwnedPersonality(db, personalityId, viewer.id);
      const rows = await repo.listLatest(db, personalityId, viewer.id, limits.questionsListLimit);
      return rows.map((r) => ({
        id: r.id,
        questionText: r.questionText,
        askedAt: r.askedAt.toISOString(),
        isRegisteredUser: r.userId !== null,
      }));
    },

    async deleteBefore(viewer: Viewer, personalityId: string, before: string | undefined): Promise<number> {
      await loadOwnedPersonality(db, personalityId, viewer.id);
      const cutoff = parseCutoff(before);
      return repo.deleteBefore(db, personalityId, viewer.id, cutoff);
    },
  };
}

export type QuestionService = ReturnType<typeof createQuestionService>;

/** YYYY-MM-DD, optionally THH:MM[:SS[.fff]] and a zone (Z or +HH:MM); nothing else. */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * An ISO date-time, or a bare date (YYYY-MM-DD) read as midnight UTC. Only a real calendar date
 * in ISO form is accepted ("hello 1" or "99999-01-01", which Date.parse reads as some date, or
 * 2025-02-31, are refused), so a delete never runs with a cut-off the owner did not give.
 */
export function parseCutoff(before: string | undefined): Date {
  const value = before?.trim() ?? '';
  const m = ISO_DATE.exec(value);
  if (!m) throw new AppError('BAD_REQUEST', messages.questions.dateRequired);
  const [, y, mo, d, h = '00', mi = '00', sec = '00', zone] = m;
  const ms = Date.parse(m[4] === undefined ? `${value}T00:00:00Z` : zone ? value : `${value}Z`);
  const calendar = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  const realDate = calendar.getUTCMonth() === Number(mo) - 1 && calendar.getUTCDate() === Number(d);
  if (!Number.isFinite(ms) || !realDate || Number(h) > 23 || Number(mi) > 59 || Number(sec) > 59) {
    throw new AppError('BAD_REQUEST', messages.questions.dateRequired);
  }
  return new Date(ms);
}
