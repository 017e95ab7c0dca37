import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { documentsKeys } from './documents-keys';

/** The owner's log of questions asked: the latest 50, newest first (the server's order and limit). */
export const listQuestionsQueryOptions = (personalityId: string) =>
  queryOptions({
    queryKey: documentsKeys.questions(personalityId),
    queryFn: async () =>
      (await unwrap(api.api.personalities[':id'].questions.$get({ param: { id: personalityId } }))).questions,
  });

export function useListQuestions(personalityId: string) {
  return useQuery(listQuestionsQueryOptions(personalityId));
}
