import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import type { FeedbackCategory } from '../../../../shared/limits';

export interface FeedbackDraft {
  category: FeedbackCategory;
  /** 1-5, or null when the person gave no rating. */
  rating: number | null;
  feedback: string;
}

/** POST /api/feedback; works signed in or not (the server takes the user from the session). */
export function submitFeedback(draft: FeedbackDraft) {
  return unwrap(
    api.api.feedback.$post({
      json: { category: draft.category, rating: draft.rating, feedback: draft.feedback.trim(), url: window.location.href },
    }),
  );
}

export function useSubmitFeedback() {
  return useMutation({ mutationFn: submitFeedback });
}
