import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { conversationKeys } from './conversation-keys';

export interface RenameConversationVariables {
  personalityId: string;
  conversationId: string;
  title: string;
}

export async function renameConversation({ conversationId, title }: RenameConversationVariables) {
  const res = api.api.conversations[':id'].$patch({ param: { id: conversationId }, json: { title } });
  return (await unwrap(res)).conversation;
}

export function useRenameConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renameConversation,
    onSettled: (_data, _err, { personalityId }) =>
      queryClient.invalidateQueries({ queryKey: conversationKeys.lists(personalityId) }),
  });
}
