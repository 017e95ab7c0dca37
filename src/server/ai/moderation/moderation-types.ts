// What every moderation provider answers (offline classifier or an OpenAI-compatible
// /v1/moderations): categories with a confidence each. Categories are the flag types stored in
// content_flags (comma-separated) and shown to admins.
export const MODERATION_CATEGORIES = [
  'harassment',
  'hate',
  'violence',
  'violence/threat',
  'sexual',
  'sexual/minors',
  'self-harm',
  'self-harm/instructions',
] as const;
export type ModerationCategory = (typeof MODERATION_CATEGORIES)[number];

export interface ModerationResult {
  /** Categories at or above the flag threshold, highest confidence first. */
  categories: { type: ModerationCategory; confidence: number }[];
  /** The highest confidence over every category (0 when nothing matched). */
  confidence: number;
}

export interface Moderator {
  readonly name: string;
  classify(text: string): Promise<ModerationResult>;
}

/** The top-level family of a category ("violence/threat" -> "violence"). */
export function categoryFamily(type: string): string {
  return type.split('/')[0]!;
}
