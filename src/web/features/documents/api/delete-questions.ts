import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { documentsKeys } from './documents-keys';

export interface DeleteQuestionsVariables {
  personalityId: string;
  /** Questions asked strictly before this instant go; one asked at it stays. */
  before: Date;
}

export async function deleteQuestions({ personalityId, before }: DeleteQuestionsVariables) {
  const res = api.api.personalities[':id'].questions.$delete({
    param: { id: personalityId },
    query: { before: before.toISOString() },
  });
  return (await unwrap(res)).deleted;
}

export function useDeleteQuestions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteQuestions,
    onSettled: (_data, _err, { personalityId }) =>
      queryClient.invalidateQueries({ queryKey: documentsKeys.questions(personalityId) }),
  });
}
