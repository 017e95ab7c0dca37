// An agent call's spoken characters are reported by the browser (ElevenLabs talks to it directly,
// not to us), so the server cannot read them from the provider. Counted as reported, a few forged
// requests could spend the day's voice credits and silence voice for everyone. So each call gets a
// signed token with its signed URL, and its agent lines are counted only under that token and no
// faster than a voice can speak since it was issued: a forger spends credits no faster than a real
// call would. The tally per call is kept in this process (with several processes each bounds its
// own share); a call's tally is forgotten once the call is older than any real one.
import crypto from 'node:crypto';
import { createTokenSigner } from '../../lib/signed-token';

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
}

export function createAgentCallCredits(secret: string) {
  const tokens = createTokenSigner<CallClaim>(secret, 'kindred agent call v1');
  const counted = new Map<string, { issuedAt: number; chars: number }>();

  function forgetOld(nowMs: number) {
    for (const [id, call] of counted) if (nowMs - call.issuedAt > AGENT_CALL_MAX_MS) counted.delete(id);
  }

  return {
    /** The token of a call starting now, for this asker and personality. */
    issue(personalityId: string, viewerId: string | null, nowMs: number): string {
      return tokens.sign({ id: crypto.randomUUID(), personalityId, viewerId, issuedAt: nowMs });
    },

    /** How many of `chars` count for this call now: none without a valid token of this asker's call here. */
    charge(token: string | undefined, personalityId: string, viewerId: string | null, chars: number, nowMs: number): number {
      const claim = token ? tokens.read(token) : undefined;
      if (!claim || claim.personalityId !== personalityId || claim.viewerId !== viewerId) return 0;
      const age = nowMs - claim.issuedAt;
      if (age < 0 || age > AGENT_CALL_MAX_MS) return 0;
      forgetOld(nowMs);
      const call = counted.get(claim.id) ?? { issuedAt: claim.issuedAt, chars: 0 };
      const allowed = AGENT_FIRST_LINE_CHARS + Math.floor((age / 1000) * AGENT_CHARS_PER_SECOND) - call.chars;
      const charged = Math.max(0, Math.min(chars, allowed));
      call.chars += charged;
      counted.set(claim.id, call);
      return charged;
    },
  };
}

export type AgentCallCredits = ReturnType<typeof createAgentCallCredits>;
