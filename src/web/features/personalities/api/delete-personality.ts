import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { personalityKeys } from './personality-keys';

export async function deletePersonality(id: string) {
  await unwrap(api.api.personalities[':id'].$delete({ param: { id } }));
}

export function useDeletePersonality() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePersonality,
    onSettled: () => queryClient.invalidateQueries({ queryKey: personalityKeys.lists() }),
  });
}
