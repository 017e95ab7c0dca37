import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import type { CreatePersonalityInput } from '../../../../shared/schemas/personality';
import { personalityKeys } from './personality-keys';

export async function createPersonality(input: CreatePersonalityInput) {
  return (await unwrap(api.api.personalities.$post({ json: input }))).personality;
}

export function useCreatePersonality() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPersonality,
    onSettled: () => queryClient.invalidateQueries({ queryKey: personalityKeys.lists() }),
  });
}
