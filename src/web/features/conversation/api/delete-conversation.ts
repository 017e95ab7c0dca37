import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { conversationKeys } from './conversation-keys';

export interface DeleteConversationVariables {
  personalityId: string;
  conversationId: string;
}

/** Deletes a saved conversation and its messages (only ever the caller's own). */
export async function deleteConversation({ conversationId }: DeleteConversationVariables) {
  await unwrap(api.api.conversations[':id'].$delete({ param: { id: conversationId } }));
}

export function useDeleteConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteConversation,
    onSettled: (_data, _err, { personalityId }) =>
      queryClient.invalidateQueries({ queryKey: conversationKeys.lists(personalityId) }),
  });
}
