// A character card file (.json or .png) to the server: preview (nothing created) and import
// (creates a private personality). Multipart, so the body is FormData rather than JSON; the paths
// come from the typed client.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, watchAnswer } from '../../../lib/api-client';
import { CARD_FILE_FIELD } from '../../../../shared/character-card-fields';
import type { CardPreview } from '../../../../shared/schemas/character-card';
import type { Personality } from '../../../../shared/schemas/personality';
import { personalityKeys } from './personality-keys';
import { personalityAvatarUrl } from '../../../lib/personality-avatar';

async function post(path: string, file: File) {
  const form = new FormData();
  form.append(CARD_FILE_FIELD, file, file.name);
  const res = await fetch(path, { method: 'POST', body: form, credentials: 'same-origin' });
  watchAnswer(res.status, path); // a 401 here means the session ended, as for every other call
  return res;
}

export async function previewCard(file: File): Promise<CardPreview> {
  const path = api.api.personalities.import.preview.$path();
  return ((await unwrap(post(path, file))) as { preview: CardPreview }).preview;
}

export async function importCard(file: File): Promise<Personality> {
  const path = api.api.personalities.import.$path();
  return ((await unwrap(post(path, file))) as { personality: Personality }).personality;
}

export function usePreviewCard() {
  return useMutation({ mutationFn: previewCard });
}

export function useImportCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importCard,
    onSettled: () => queryClient.invalidateQueries({ queryKey: personalityKeys.lists() }),
  });
}

/** Download addresses of the owner's card export, and the avatar for whoever may see it. */
export const cardUrls = {
  json: (id: string) => `/api/personalities/${encodeURIComponent(id)}/export.json`,
  png: (id: string) => `/api/personalities/${encodeURIComponent(id)}/export.png`,
  avatar: (id: string, version: string) => personalityAvatarUrl({ id, hasAvatar: true, updatedAt: version })!,
};
