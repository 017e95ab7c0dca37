import { z } from 'zod';
import { FEEDBACK_CATEGORIES, limits } from '../limits';
import { messages } from '../messages';
import { hasVisibleText } from '../text/visible';

const categories = FEEDBACK_CATEGORIES.map((c) => c.value) as [string, ...string[]];

/** One message for every way a rating can be wrong (not a number, a fraction, out of range). */
const RATING_RANGE = 'Rating must be a whole number from 1 to 5';

export const feedbackSchema = z.strictObject({
  category: z.enum(categories).default('general'),
  rating: z.number({ error: RATING_RANGE }).int(RATING_RANGE).min(1, RATING_RANGE).max(5, RATING_RANGE).nullable().default(null),
  feedback: z
    .string({ error: messages.feedback.empty })
    .transform((v) => v.trim())
    .pipe(
      z
        .string()
        .min(1, messages.feedback.empty)
        .max(limits.feedbackMax, `Feedback must be at most ${limits.feedbackMax} characters`)
        // "Non-empty after trimming" means something shows: invisible characters alone are empty.
        .refine(hasVisibleText, messages.feedback.empty),
    ),
  /** The page the person was on; only http(s) URLs are kept. */
  url: z.string().max(2000).nullable().optional(),
});
export type FeedbackInput = z.input<typeof feedbackSchema>;
