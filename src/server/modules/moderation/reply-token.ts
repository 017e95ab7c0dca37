// A report names a reply of a personality; the text comes from the reporter's browser. So that
// nobody can put words in a personality's mouth by "reporting" them, each streamed reply comes
// with a token binding its text to its personality (signed, stateless: an anonymous visitor's
// conversation lives only in their tab). A signed-in person's saved reply is found by its id
// instead (moderation.repository findOwnReply).
import { createHash } from 'node:crypto';
import { createTokenSigner } from '../../lib/signed-token';

interface ReplyClaim {
  /** The personality that said it. */
  p: string;
  /** sha256 of the reply's text. */
  h: string;
}

const hashOf = (text: string) => createHash('sha256').update(text).digest('base64url');

export function createReplyTokens(secret: string) {
  const tokens = createTokenSigner<ReplyClaim>(secret, 'kindred reply v1');
  return {
    sign: (personalityId: string, content: string): string => tokens.sign({ p: personalityId, h: hashOf(content) }),
    /** This personality said exactly this text. */
    matches(token: string, personalityId: string, content: string): boolean {
      const claim = tokens.read(token);
      return claim !== undefined && claim.p === personalityId && claim.h === hashOf(content);
    },
  };
}

export type ReplyTokens = ReturnType<typeof createReplyTokens>;
