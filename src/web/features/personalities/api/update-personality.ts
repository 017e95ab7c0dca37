import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import type { UpdatePersonalityInput } from '../../../../shared/schemas/personality';
import { personalityKeys } from './personality-keys';

export interface UpdatePersonalityVariables {
  id: string;
  changes: UpdatePersonalityInput;
}

export async function updatePersonality({ id, changes }: UpdatePersonalityVariables) {
  return (await unwrap(api.api.personalities[':id'].$patch({ param: { id }, json: changes }))).personality;
}

export function useUpdatePersonality() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePersonality,
    onSettled: () => queryClient.invalidateQueries({ queryKey: personalityKeys.lists() }),
  });
}
