// OpenAI-compatible POST {base}/moderations (OpenAI's omni-moderation, or any server speaking its
// API): its categories and scores become flag types and confidences. A failure falls back to the
// offline classifier for that text, so a provider outage never lets content through unchecked.
import type { ModerationCategory, ModerationResult, Moderator } from './moderation-types';
import { classifyOffline } from './offline-classifier';

/** OpenAI's category names -> ours. */
const CATEGORY_MAP: Record<string, ModerationCategory> = {
  harassment: 'harassment',
  'harassment/threatening': 'violence/threat',
  hate: 'hate',
  'hate/threatening': 'violence/threat',
  violence: 'violence',
  'violence/graphic': 'violence',
  sexual: 'sexual',
  'sexual/minors': 'sexual/minors',
  'self-harm': 'self-harm',
  'self-harm/intent': 'self-harm',
  'self-harm/instructions': 'self-harm/instructions',
  illicit: 'violence',
  'illicit/violent': 'violence',
};

interface ModerationsAnswer {
  results?: { category_scores?: Record<string, number> }[];
}

export function createOpenAIModerator(opts: { baseUrl: string; apiKey?: string; model: string; threshold: number; timeoutMs?: number }): Moderator {
  const url = `${opts.baseUrl.replace(/\/+$/, '')}/moderations`;
  return {
    name: `openai:${opts.model}`,
    async classify(text: string): Promise<ModerationResult> {
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}) },
          body: JSON.stringify({ model: opts.model, input: text.slice(0, 32_000) }),
          // A small budget: past it the offline classifier decides, so a slow provider never holds a reply.
          signal: AbortSignal.timeout(opts.timeoutMs ?? 1500),
        });
        if (!res.ok) throw new Error(`moderation HTTP ${res.status}`);
        const answer = (await res.json()) as ModerationsAnswer;
        const scores = answer.results?.[0]?.category_scores ?? {};
        const best = new Map<ModerationCategory, number>();
        for (const [name, score] of Object.entries(scores)) {
          const ours = CATEGORY_MAP[name];
          if (ours && typeof score === 'number') best.set(ours, Math.max(best.get(ours) ?? 0, score));
        }
        const all = [...best.entries()].map(([type, confidence]) => ({ type, confidence })).sort((a, b) => b.confidence - a.confidence);
        return { categories: all.filter((c) => c.confidence >= opts.threshold), confidence: all[0]?.confidence ?? 0 };
      } catch {
        return classifyOffline(text, { threshold: opts.threshold });
      }
    },
  };
}
