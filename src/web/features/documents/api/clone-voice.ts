// POST /api/personalities/{id}/voice/clone (multipart: sample, name, description, consent): the
// personality then speaks with the new ElevenLabs voice, so the personalities refresh after it.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messages } from '../../../../shared/messages';
import { api, ApiError } from '../../../lib/api-client';
import { personalityKeys } from '../../personalities/api/personality-keys';

export interface CloneVoiceVariables {
  personalityId: string;
  sample: File;
  name: string;
  description: string;
}

export async function cloneVoice({ personalityId, sample, name, description }: CloneVoiceVariables) {
  const form = new FormData();
  form.append('consent', 'true');
  if (name.trim()) form.append('name', name.trim());
  if (description.trim()) form.append('description', description.trim());
  form.append('sample', sample, sample.name);
  const path = api.api.personalities[':id'].voice.clone.$path({ param: { id: personalityId } });
  const res = await fetch(path, { method: 'POST', body: form, credentials: 'same-origin' });
  const body = (await res.json().catch(() => null)) as {
    personality?: { customVoiceId: string | null };
    error?: { code?: string; message?: string; details?: { reason?: string; hint?: string } };
  } | null;
  if (!res.ok || !body?.personality) {
    throw new ApiError(res.status, body?.error?.code ?? 'UNKNOWN', body?.error?.message ?? messages.voice.cloneFailed, body?.error?.details);
  }
  return body.personality;
}

export function useCloneVoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cloneVoice,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: personalityKeys.all }),
  });
}
