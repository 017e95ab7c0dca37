// Moderation of what people send, what replies say and what documents hold (issue 15).
// - check(): the offline classifier (or the configured model) on a text; severe types are held
//   back by the caller (a message never reaches the model, a reply is withheld).
// - Anything at or above the threshold becomes a pending flag with an excerpt (never a whole
//   document): the flagged sentence(s) with a little context (flag-excerpt.ts). A flagged
//   document is made private until an admin clears it; text an admin cleared is not flagged again.
// - Flags outlive their personality: deleting it must not erase its record.
// - People report replies; admins list and review flags.
import { createHash } from 'node:crypto';
import type { Database } from '../../db/client';
import type { Viewer } from '../../auth/session';
import type { Clock } from '../../lib/clock';
import type { Logger } from '../../lib/logger';
import { AppError } from '../../lib/errors';
import { messages } from '../../../shared/messages';
import { UNVERIFIED_REPORT, type ContentFlag, type ContentFlagList } from '../../../shared/schemas/moderation';
import type { ModerationResult, Moderator } from '../../ai/moderation/moderation-types';
import type { FlagSource } from '../../db/schema/moderation';
import { isUuid, loadVisiblePersonality } from '../personalities/personality-access';
import * as repo from './moderation.repository';
import type { ReplyTokens } from './reply-token';
import { flaggedExcerpt, type ExcerptClassifier } from './flag-excerpt';
import { createDocumentEvents } from '../documents/documents-events';

const documentEvents = createDocumentEvents();

/** Spec section 9: "Recently Reviewed" shows 10. */
const RECENTLY_REVIEWED = 10;
/** Pending flags are listed a page at a time ("Load more"): thousands can wait after a busy week. */
export const PENDING_FLAGS_PAGE = 50;
/** A document is checked in windows of this many characters (plus a small overlap). */
const DOCUMENT_WINDOW = 4000;
const WINDOW_OVERLAP = 200;

export interface ModerationVerdict {
  result: ModerationResult;
  /** Some category is one of MODERATION_SEVERE_TYPES. */
  severe: boolean;
}

/** What an admin's decision on a document's text is remembered by (the flagged window's text). */
export function checkedTextHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function toDto(r: repo.FlagRow): ContentFlag {
  const f = r.flag;
  // Shown like a deleted personality of a public request; the name it had stays beside it.
  const deleted = f.personalityId === null || r.currentPersonalityName === null;
  return {
    id: f.id,
    personalityId: deleted ? null : f.personalityId,
    personalityName: deleted ? messages.approval.deletedPersonality : r.currentPersonalityName!,
    personalityDeleted: deleted,
    personalityNameAtFlag: f.personalityName,
    personalityIsPublic: !deleted && Boolean(r.personalityIsPublic),
    // The document's name now, or the one it had when flagged once it is deleted.
    documentFileName: r.documentFileName ?? f.documentName ?? null,
    documentDeleted: r.documentFileName === null && f.documentName !== null,
    reporter: r.reporterName?.trim() ? r.reporterName : (r.reporterEmail ?? null),
    source: f.source,
    flagTypes: f.flagType.split(',').filter(Boolean),
    confidence: f.confidence,
    excerpt: f.contentExcerpt,
    reportReason: f.reportReason,
    status: f.status,
    adminNotes: f.adminNotes,
    reviewedAt: f.reviewedAt?.toISOString() ?? null,
    createdAt: f.createdAt.toISOString(),
  };
}

export interface ModerationDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  moderator: Moderator;
  severeTypes: string[];
  /** Tells a reported text the personality really said from one typed by the reporter (reply-token.ts). */
  replyTokens: ReplyTokens;
}

export function createModerationService(deps: ModerationDeps) {
  const { db, clock, logger, moderator } = deps;
  const severe = new Set(deps.severeTypes);
  // The offline classifier is cheap enough to score every sentence when finding an excerpt.
  const offline = moderator.name === 'offline';
  const excerptClassifier: ExcerptClassifier = { classify: (text) => moderator.classify(text), cheap: offline };

  async function check(text: string): Promise<ModerationVerdict> {
    const result = await moderator.classify(text);
    return { result, severe: result.categories.some((c) => severe.has(c.type)) };
  }

  async function flag(
    verdict: ModerationVerdict,
    at: { personalityId: string; source: FlagSource; text: string; documentId?: string; hold?: { wasPrivate: boolean }; checkedTextHash?: string },
  ) {
    if (verdict.result.categories.length === 0) return;
    await repo.insertFlag(db, {
      personalityId: at.personalityId,
      documentId: at.documentId ?? null,
      source: at.source,
      flagType: verdict.result.categories.map((c) => c.type).join(','),
      confidence: verdict.result.confidence,
      contentExcerpt: await flaggedExcerpt(at.text, verdict.result, excerptClassifier),
      heldDocument: Boolean(at.hold),
      documentWasPrivate: at.hold?.wasPrivate ?? false,
      checkedTextHash: at.checkedTextHash ?? null,
    });
  }

  return {
    check,

    /**
     * A verdict begun now, for checkAndFlag to use later, when that costs nothing but this thread's
     * time (the offline classifier): the chat classifies a message while the database checks the
     * asker's access, instead of after. Undefined with a provider, which is asked only once access
     * and the rate limit have passed (a refused request never costs a provider call).
     */
    checkAhead(text: string): Promise<ModerationVerdict> | undefined {
      if (!offline) return undefined;
      const verdict = check(text);
      verdict.catch(() => {}); // handled where it is awaited (checkAndFlag)
      return verdict;
    },

    /**
     * Checks a text and records a flag when it crosses the threshold; never throws (a failure is
     * logged). `ahead`: the text's verdict from checkAhead, when one was begun.
     */
    async checkAndFlag(personalityId: string, source: 'message' | 'reply', text: string, ahead?: Promise<ModerationVerdict>): Promise<ModerationVerdict> {
      const verdict = await (ahead ?? check(text)).catch((err) => {
        logger.error('moderation check failed', err);
        return { result: { categories: [], confidence: 0 }, severe: false };
      });
      // Saved beside the reply, not before it: a flag never delays the first word.
      void flag(verdict, { personalityId, source, text }).catch((err) => logger.error('saving a content flag failed', err));
      return verdict;
    },

    /**
     * A document's extracted text, in the processing job: flagged text holds the document private.
     * Processing it again does not undo an admin's decision: a window an admin called a false
     * positive is passed over, and one already flagged is not flagged twice. Changed text is new.
     */
    async checkDocument(doc: { id: string; personalityId: string }, text: string): Promise<boolean> {
      // Whitespace made single first, so the same text chunked differently gives the same windows.
      const flat = text.replace(/\s+/g, ' ').trim();
      let held = false;
      // The classifier reads the text in windows, so a long document is checked throughout.
      for (let i = 0, n = 0; i < flat.length; i += DOCUMENT_WINDOW, n++) {
        // A long document: let requests in between (about a millisecond a window).
        if (n > 0 && n % 20 === 0) await new Promise((r) => setImmediate(r));
        const part = flat.slice(i, i + DOCUMENT_WINDOW + WINDOW_OVERLAP);
        const verdict = await check(part);
        if (verdict.result.categories.length === 0) continue;
        const hash = checkedTextHash(part);
        const decided = await repo.flagStatusesForText(db, doc.id, hash);
        if (decided.length > 0) {
          // Cleared by an admin: not flagged again. Pending or confirmed: that flag still holds the
          // document. Either way the rest is read, so new harmful text elsewhere gets its own flag.
          held ||= decided.some((s) => s !== 'rejected');
          continue;
        }
        const hold = await repo.holdDocument(db, doc.id);
        await flag(verdict, { personalityId: doc.personalityId, source: 'document', text: part, documentId: doc.id, hold, checkedTextHash: hash });
        return true;
      }
      return held;
    },

    /** May the owner make this document visible again? Not while a flag holds it. */
    async documentHeld(documentId: string): Promise<boolean> {
      return repo.documentHeld(db, documentId);
    },

    /**
     * A person (or a signed-out visitor) reports a reply of a personality they can see. The text
     * kept is the reply the personality gave: a signed-in person's saved reply by its id, or the
     * text its reply token vouches for. Text that matches neither (an agent call's line, which the
     * browser reports, or words typed to put in its mouth) is still filed, marked "unverified".
     */
    async report(
      viewer: Viewer | null,
      personalityId: string,
      input: { content: string; reason?: string | null; messageId?: string; replyToken?: string },
    ): Promise<void> {
      const personality = await loadVisiblePersonality(db, personalityId, viewer?.id ?? null);
      const saved = viewer && input.messageId && isUuid(input.messageId) ? await repo.findOwnReply(db, input.messageId, viewer.id, personality.id) : undefined;
      const content = saved ?? input.content;
      const verified = saved !== undefined || (input.replyToken !== undefined && deps.replyTokens.matches(input.replyToken, personality.id, input.content));
      const verdict = await check(content).catch(() => ({ result: { categories: [], confidence: 0 }, severe: false }));
      await repo.insertFlag(db, {
        personalityId: personality.id,
        flaggedByUserId: viewer?.id ?? null,
        source: 'report',
        flagType: ['reported', ...(verified ? [] : [UNVERIFIED_REPORT]), ...verdict.result.categories.map((c) => c.type)].join(','),
        confidence: Math.max(verdict.result.confidence, 0.5),
        // The reported reply's flagged sentence when the classifier agrees; else its start.
        contentExcerpt: await flaggedExcerpt(content, verdict.result, excerptClassifier),
        reportReason: input.reason ?? null,
      });
    },

    /** A page of pending flags (the first, or the one after `before`), the true number pending, and the latest reviews. */
    async list(before?: string): Promise<ContentFlagList> {
      const [page, pendingTotal, recent] = await Promise.all([
        repo.listPendingPage(db, { size: PENDING_FLAGS_PAGE, before }),
        repo.countPending(db),
        repo.listRecentlyReviewed(db, RECENTLY_REVIEWED),
      ]);
      return { pending: page.rows.map(toDto), pendingTotal, nextCursor: page.nextCursor, recent: recent.map(toDto) };
    },

    async review(admin: Viewer, id: string, input: { status: 'approved' | 'rejected'; adminNotes?: string | null }): Promise<ContentFlag> {
      const existing = /^[0-9a-f-]{36}$/i.test(id) ? await repo.findFlag(db, id) : undefined;
      if (!existing) throw new AppError('NOT_FOUND', messages.errors.notFound);
      const done = await repo.reviewFlag(db, id, { status: input.status, adminNotes: input.adminNotes ?? null, reviewerId: admin.id, at: clock.now() });
      if (!done) throw new AppError('CONFLICT', messages.admin.flagNotPending);
      // A false positive gives a held document back to its owner's choice (private stays private).
      if (input.status === 'rejected' && existing.flag.heldDocument && existing.flag.documentId) {
        await repo.releaseDocument(db, existing.flag.documentId, existing.flag.documentWasPrivate);
        // Its owner's open Documents modal and the personality's starters hear of it (any process).
        if (existing.flag.personalityId) documentEvents.changed(existing.flag.personalityId);
      }
      return toDto((await repo.findFlag(db, id))!);
    },
  };
}

export type ModerationService = ReturnType<typeof createModerationService>;
