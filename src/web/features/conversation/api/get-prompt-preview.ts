import { useMutation } from '@tanstack/react-query';
import type { PreviewRequest } from '../../../../shared/schemas/conversations';
import { api, unwrap } from '../../../lib/api-client';

export interface PromptPreviewVariables {
  personalityId: string;
  request: PreviewRequest;
}

/**
 * The exact prompt a message would send, and a signed previewId: "Send Prompt" passes it back so
 * the server sends exactly what was shown. A POST with nothing to cache, so a mutation.
 */
export async function getPromptPreview({ personalityId, request }: PromptPreviewVariables) {
  return unwrap(api.api.personalities[':id'].chat.preview.$post({ param: { id: personalityId }, json: request }));
}

export function usePromptPreview() {
  return useMutation({ mutationFn: getPromptPreview });
}
