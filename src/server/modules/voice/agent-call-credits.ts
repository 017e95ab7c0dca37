// An agent call's spoken characters are reported by the browser (ElevenLabs talks to it directly,
// not to us), so the server cannot read them from the provider. Counted as reported, a few forged
// requests could spend the day's voice credits and silence voice for everyone. So each call gets a
// signed token with its signed URL, and its agent lines are counted only under that token and no
// faster than a voice can speak since it was issued: a forger spends credits no faster than a real
// call would. The tally per call is kept in the database (agent_call_tallies), so several app
// processes share it; a call's row is dropped once the call is older than any real one.
// The token also names the visitor who started the call, so its lines count toward that visitor's
// paid-voice budget (speech-visitor.ts) even when their address changes during the call.
import crypto from 'node:crypto';
import { eq, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { agentCallTallies } from '../../db/schema/voice';
import { createTokenSigner } from '../../lib/signed-token';
import type { Visitor } from './voice.service';

/** Faster than anyone speaks (~15 characters a second). */
export const AGENT_CHARS_PER_SECOND = 25;
/** A first line may arrive whole a moment after the call starts. */
export const AGENT_FIRST_LINE_CHARS = 600;
/** Past this a token counts nothing more (and its tally is dropped). */
export const AGENT_CALL_MAX_MS = 2 * 60 * 60_000;

interface CallClaim {
  id: string;
  personalityId: string;
  viewerId: string | null;
  issuedAt: number;
  /** Who started the call, for their daily budget; absent from tokens issued before it was added. */
  visitor?: Visitor;
}

export function createAgentCallCredits(secret: string) {
  const tokens = createTokenSigner<CallClaim>(secret, 'kindred agent call v1');

  /** The claim of a valid token of this asker's call with this personality. */
  const claimOf = (token: string | undefined, personalityId: string, viewerId: string | null): CallClaim | undefined => {
    const claim = token ? tokens.read(token) : undefined;
    return claim && claim.personalityId === personalityId && claim.viewerId === viewerId ? claim : undefined;
  };

  return {
    /** The token of a call starting now, for this asker, personality and (for the budget) visitor. */
    issue(personalityId: string, viewerId: string | null, nowMs: number, visitor?: Visitor): string {
      const claim: CallClaim = { id: crypto.randomUUID(), personalityId, viewerId, issuedAt: nowMs };
      if (visitor) claim.visitor = { subject: visitor.subject, userId: visitor.userId, ipAddress: visitor.ipAddress };
      return tokens.sign(claim);
    },

    /** The visitor who started this asker's call, when its token names one (tokens issued before it was added do not). */
    callerOf(token: string | undefined, personalityId: string, viewerId: string | null): Visitor | undefined {
      return claimOf(token, personalityId, viewerId)?.visitor;
    },

    /** How many of `chars` count for this call now: none without a valid token of this asker's call. */
    async charge(db: Database, token: string | undefined, personalityId: string, viewerId: string | null, chars: number, nowMs: number): Promise<number> {
      const claim = claimOf(token, personalityId, viewerId);
      if (!claim) return 0;
      // Only this server signs tokens, so one from the future means another app process's clock is
      // ahead of this one's: the call has just begun (it is not free).
      const age = Math.max(0, nowMs - claim.issuedAt);
      if (age > AGENT_CALL_MAX_MS || chars <= 0) return 0;
      // Everything this call may have spoken by now; the row lock makes concurrent lines (from any
      // process) take turns, so together they never pass it.
      const ceiling = AGENT_FIRST_LINE_CHARS + Math.floor((age / 1000) * AGENT_CHARS_PER_SECOND);
      return db.transaction(async (tx) => {
        await tx.delete(agentCallTallies).where(lt(agentCallTallies.issuedAt, new Date(nowMs - AGENT_CALL_MAX_MS)));
        await tx.insert(agentCallTallies).values({ callId: claim.id, issuedAt: new Date(claim.issuedAt), chars: 0 }).onConflictDoNothing();
        const [row] = await tx
          .select({ chars: agentCallTallies.chars })
          .from(agentCallTallies)
          .where(eq(agentCallTallies.callId, claim.id))
          .for('update');
        const charged = Math.max(0, Math.min(chars, ceiling - (row?.chars ?? 0)));
        if (charged > 0) {
          await tx
            .update(agentCallTallies)
            .set({ chars: sql`${agentCallTallies.chars} + ${charged}` })
            .where(eq(agentCallTallies.callId, claim.id));
        }
        return charged;
      });
    },
  };
}

export type AgentCallCredits = ReturnType<typeof createAgentCallCredits>;
