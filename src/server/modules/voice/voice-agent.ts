// Open mic with an ElevenLabs agent (spec sections 2, 4, 5, 7): the server hands the browser a
// signed URL for the agent's websocket (the API key never leaves the server), and the browser
// reports each finished line of the call so it lands in the same saved conversation as text and
// self-paced chat. The agent's spoken characters count toward the daily voice credits, and toward
// the daily paid-voice budget of the visitor who started the call (VOICE_DAILY_CHARACTERS_PER_VISITOR,
// shared with the speech route): a visitor at it gets no new call, and a call that passes it is told
// to end, so one visitor cannot spend the whole site's ElevenLabs credits through agent calls.
// Each line is checked as the text chat checks its messages and replies (issue 15): the person's
// lines as 'message', the agent's as 'reply', flagged for review above the threshold; and the
// person's lines go into the owner's question log as a typed question does. The call was heard
// already, so nothing can be held back from it; but a severe line is not kept verbatim: the saved
// conversation holds the chat's own notice in its place, and the response says it was withheld.
import { createRoute, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv, Viewer } from '../../auth/session';
import type { Database } from '../../db/client';
import type { Clock } from '../../lib/clock';
import type { Logger } from '../../lib/logger';
import { AppError } from '../../lib/errors';
import { createRouter, describeRoutes, errorResponses, jsonBody, jsonResponse, personalityIdParam } from '../../lib/openapi';
import { messages } from '../../../shared/messages';
import type { VoiceAgents } from '../../ai/speech/elevenlabs-agents';
import { SpeechProviderError } from '../../ai/speech/speech-types';
import { loadVisiblePersonality } from '../personalities/personality-access';
import * as conversations from '../conversations/conversations.repository';
import { NEW_CONVERSATION_TITLE, titleFromMessage } from '../conversations/conversations.service';
import { personaGreeting } from '../conversations/persona-context';
import { addSpentCredits, addVisitorCharacters, creditsUsedOn, utcDay, visitorCharactersOn, visitorDayHit } from './voice.repository';
import type { AgentCallCredits } from './agent-call-credits';
import { asVoiceLimit } from './voice.routes';
import type { Visitor } from './voice.service';
import { speechVisitor } from './speech-visitor';
import type { ModerationService } from '../moderation/moderation.service';
import type { QuestionService } from '../questions/questions.service';

export const AGENT_TRANSCRIPT_MAX = 10_000;

export interface VoiceAgentDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  agents?: VoiceAgents;
  dailyCreditLimit: number;
  /** Paid-voice characters per visitor per UTC day (the speech route's budget); 0: no budget. */
  dailyCharactersPerVisitor: number;
  /** Counts a call's agent lines under the token its signed URL came with (agent-call-credits.ts). */
  callCredits: AgentCallCredits;
  /** Checks every line (the person's as 'message', the agent's as 'reply') and files flags. */
  moderation: Pick<ModerationService, 'checkAndFlag' | 'checkAhead'>;
  /** The owner's question log: the person's lines are logged as chat questions are. */
  questions: Pick<QuestionService, 'log'>;
}

const transcriptSchema = z
  .object({
    conversationId: z.string().uuid().nullable(),
    role: z.enum(['user', 'assistant']),
    content: z.string().trim().min(1).max(AGENT_TRANSCRIPT_MAX),
    /** The call's token from the session route: the agent's lines count as credits only under it. */
    callToken: z.string().max(2000).optional(),
  })
  .strict();

export type AgentTranscriptLine = z.infer<typeof transcriptSchema>;

/**
 * What a severe line is kept as: the chat's own notice for the same case (a person's message
 * refused, a reply withheld), of kind 'fallback' so it is never sent back to a model as history.
 */
export function withheldNotice(role: AgentTranscriptLine['role']): string {
  return role === 'user' ? messages.moderation.messageWithheld : messages.moderation.replyWithheld;
}

export function createVoiceAgentService(deps: VoiceAgentDeps) {
  const { db, clock, logger } = deps;
  const perVisitor = deps.dailyCharactersPerVisitor;

  /**
   * The visitor's characters today after adding `charged` (an agent's words were spoken before we
   * hear of them, so they count even past the budget); undefined without a budget.
   */
  async function countForVisitor(visitor: Visitor, charged: number, now: Date): Promise<number | undefined> {
    if (perVisitor <= 0) return undefined;
    if (charged <= 0) return visitorCharactersOn(db, visitor.subject, now);
    return addVisitorCharacters(db, visitorDayHit(visitor, charged, now));
  }

  return {
    async signedUrl(viewer: Viewer | null, personalityId: string, visitor: Visitor, signal?: AbortSignal): Promise<{ signedUrl: string; agentId: string; callToken: string }> {
      const personality = await loadVisiblePersonality(db, personalityId, viewer?.id ?? null);
      const agentId = personality.agentId?.trim();
      if (!agentId) throw new AppError('AGENT_ID_REQUIRED');
      if (!deps.agents) throw new AppError('AGENT_UNAVAILABLE');
      // Only read here: a call's characters are counted as its lines are reported.
      if (perVisitor > 0 && (await visitorCharactersOn(db, visitor.subject, clock.now())) >= perVisitor) {
        logger.info(`elevenlabs agent call refused: ${visitor.subject} has spent today's ${perVisitor} characters per visitor`);
        throw new AppError('VOICE_CREDITS_EXHAUSTED', undefined, { details: { dailyLimit: perVisitor, perVisitor: true } });
      }
      if ((await creditsUsedOn(db, utcDay(clock.now()))) >= deps.dailyCreditLimit) throw new AppError('VOICE_CREDITS_EXHAUSTED', undefined, { details: { dailyLimit: deps.dailyCreditLimit } });
      let signedUrl: string;
      try {
        signedUrl = await deps.agents.signedUrl(agentId, signal);
      } catch (err) {
        if (err instanceof SpeechProviderError && err.kind === 'rate_limit') throw new AppError('VOICE_RATE_LIMITED', undefined, { cause: err });
        logger.warn(`elevenlabs signed url failed: ${err instanceof Error ? err.message : String(err)}`);
        throw new AppError('AGENT_FAILED', messages.openMic.agentFailed(err instanceof Error ? err.message : 'unknown error'), { cause: err });
      }
      // Only a websocket URL may reach the browser (never a javascript: or http page to navigate to).
      if (!/^wss?:\/\//i.test(signedUrl)) throw new AppError('AGENT_FAILED', messages.openMic.noSignedUrl);
      return { signedUrl, agentId, callToken: deps.callCredits.issue(personality.id, viewer?.id ?? null, clock.now().getTime(), visitor) };
    },

    /**
     * One finished line of an agent call. Signed-in people's lines go into their saved conversation
     * (a new one when conversationId is null); an anonymous visitor's stay in their tab. The agent's
     * lines are counted as spoken characters either way, under the call's token and no faster than
     * speech (agent-call-credits.ts), and toward the budget of the visitor who started the call.
     * creditsExhausted: the site's credits or that visitor's budget are spent (the call ends).
     * Every line is checked by moderation (the person's as a chat message, the agent's as a chat
     * reply); the person's lines are logged as the owner's questions, as a chat question is. A
     * severe line is saved as the chat's notice instead (`withheld`, with the `notice` to show), and
     * a person's severe line is not logged as a question (the chat refuses such a message unlogged).
     */
    async saveLine(viewer: Viewer | null, personalityId: string, line: AgentTranscriptLine, visitor: Visitor) {
      // The offline classifier's verdict is worked out while the database checks access (as the chat does).
      const ahead = deps.moderation.checkAhead(line.content);
      const personality = await loadVisiblePersonality(db, personalityId, viewer?.id ?? null);
      const now = clock.now();
      let creditsExhausted = false;
      if (line.role === 'assistant') {
        const charged = await deps.callCredits.charge(db, line.callToken, personality.id, viewer?.id ?? null, line.content.length, now.getTime());
        const total = charged > 0 ? await addSpentCredits(db, utcDay(now), charged) : await creditsUsedOn(db, utcDay(now));
        // The visitor named in the call's token (their address may have changed since); a token
        // issued before tokens named them: whoever reports the line.
        const caller = deps.callCredits.callerOf(line.callToken, personality.id, viewer?.id ?? null) ?? visitor;
        const visitorTotal = await countForVisitor(caller, charged, now);
        creditsExhausted = total >= deps.dailyCreditLimit || (visitorTotal !== undefined && visitorTotal >= perVisitor);
      }

      // Another person's conversation is refused before the line is checked: nothing is flagged
      // (nor logged) for a request that is refused, as in the chat.
      const owned = viewer && line.conversationId ? await conversations.findOwned(db, line.conversationId, viewer.id) : undefined;
      if (viewer && line.conversationId && (!owned || owned.personalityId !== personality.id)) {
        throw new AppError('NOT_FOUND', messages.chat.conversationNotFound);
      }

      // Never throws: a provider's failure is logged and the line flows, as in the chat.
      const verdict = await deps.moderation.checkAndFlag(personality.id, line.role === 'user' ? 'message' : 'reply', line.content, ahead);
      const withheld = verdict.severe;
      const content = withheld ? withheldNotice(line.role) : line.content;
      const outcome = { withheld, ...(withheld ? { notice: content } : {}) };
      // The owner's question log: best-effort, a failure never fails the line (questions.service.ts).
      const logQuestion = async () => {
        if (line.role !== 'user' || withheld) return;
        await deps.questions.log(personality.id, line.content, viewer?.id ?? null).catch((err: unknown) => {
          logger.warn(`could not log a question for personality ${personality.id}`, err instanceof Error ? err.message : err);
        });
      };

      if (!viewer) {
        await logQuestion();
        return { conversationId: null, saved: false, creditsExhausted, ...outcome };
      }

      let conversationId = line.conversationId;
      let rename: string | undefined;
      // A withheld line never names the conversation: the next line the person says does.
      const titled = line.role === 'user' && !withheld;
      if (owned) {
        if (owned.title === NEW_CONVERSATION_TITLE && titled) rename = titleFromMessage(line.content);
      } else {
        const created = await conversations.insertConversation(db, {
          userId: viewer.id,
          personalityId: personality.id,
          title: titled ? titleFromMessage(line.content) : NEW_CONVERSATION_TITLE,
          greeting: personaGreeting(personality),
          // A millisecond before the first line, so the greeting is always listed first.
          now: new Date(now.getTime() - 1),
        });
        conversationId = created.id;
      }
      await conversations.insertMessage(db, { conversationId: conversationId!, role: line.role, kind: withheld ? 'fallback' : 'message', content, now, rename });
      await logQuestion();
      return { conversationId, saved: true, creditsExhausted, ...outcome };
    },
  };
}

export type VoiceAgentService = ReturnType<typeof createVoiceAgentService>;

/** Mounted at /api/personalities. */
export function voiceAgentRoutes(service: VoiceAgentService, limits: { session: MiddlewareHandler<AppEnv>; transcript: MiddlewareHandler<AppEnv> }) {
  const router = describeRoutes(createRouter(), [
    createRoute({
      method: 'post',
      path: '/{id}/voice/agent/session',
      tags: ['voice'],
      summary: "A signed URL for the personality's ElevenLabs agent (the API key stays on the server)",
      request: personalityIdParam,
      responses: { 200: jsonResponse(z.object({ signedUrl: z.string(), agentId: z.string(), callToken: z.string() }), 'Signed URL and the call token its lines are counted under'), ...errorResponses },
    }),
    createRoute({
      method: 'post',
      path: '/{id}/voice/agent/transcript',
      tags: ['voice'],
      summary: 'Save one line of an agent call into the conversation',
      request: { ...personalityIdParam, ...jsonBody(transcriptSchema) },
      responses: {
        200: jsonResponse(
          z.object({
            conversationId: z.string().nullable(),
            saved: z.boolean(),
            creditsExhausted: z.boolean(),
            /** Moderation judged the line severe: the conversation keeps `notice` in its place. */
            withheld: z.boolean(),
            notice: z.string().optional(),
          }),
          'Saved (or not, for an anonymous visitor); a severe line is saved as the notice instead',
        ),
        ...errorResponses,
      },
    }),
  ]);
  router.use('/:id/voice/agent/session', asVoiceLimit(limits.session));
  router.use('/:id/voice/agent/transcript', limits.transcript);
  return router
    .post('/:id/voice/agent/session', async (c) => {
      const result = await service.signedUrl(c.get('viewer') ?? null, c.req.param('id'), speechVisitor(c), c.req.raw.signal);
      return c.json(result, 200);
    })
    .post('/:id/voice/agent/transcript', async (c) => {
      let body: unknown;
      try {
        body = await c.req.json();
      } catch {
        throw new AppError('BAD_REQUEST', messages.errors.badJson);
      }
      const parsed = transcriptSchema.safeParse(body);
      if (!parsed.success) throw new AppError('BAD_REQUEST', parsed.error.issues[0]?.message ?? messages.errors.invalidInput);
      return c.json(await service.saveLine(c.get('viewer') ?? null, c.req.param('id'), parsed.data, speechVisitor(c)), 200);
    });
}
