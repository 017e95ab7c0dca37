// The two server calls of an agent call: a signed URL for the agent's websocket (the API key stays
// on the server), and each finished line of the call for the saved conversation and the credits.
import { ApiError, watchAnswer } from '../../../lib/api-client';
import { messages } from '../../../../shared/messages';

const agentPath = (personalityId: string, what: 'session' | 'transcript') => `/api/personalities/${encodeURIComponent(personalityId)}/voice/agent/${what}`;

async function postJson<T>(url: string, body: unknown, fallback: string, signal?: AbortSignal): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body ?? {}),
      signal,
    });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new ApiError(0, 'NETWORK', messages.openMic.networkError);
  }
  // As for every other call: a 401 tells the app the session may have ended, a 404 that the
  // personality is gone (its conversation gives way to "This personality is not available.").
  watchAnswer(res.status, url);
  const parsed = (await res.json().catch(() => null)) as (T & { error?: { code?: string; message?: string } }) | null;
  if (!res.ok) throw new ApiError(res.status, parsed?.error?.code ?? 'UNKNOWN', parsed?.error?.message ?? fallback);
  return parsed as T;
}

/** Where to open the agent's websocket, and the call's token its lines are sent with (they count as credits under it). */
export interface AgentSession {
  signedUrl: string;
  callToken?: string;
}

export async function requestSignedUrl(personalityId: string, signal?: AbortSignal): Promise<AgentSession> {
  const body = await postJson<{ signedUrl?: string; callToken?: string }>(agentPath(personalityId, 'session'), {}, messages.openMic.noSignedUrl, signal);
  if (!body?.signedUrl) throw new ApiError(502, 'AGENT_FAILED', messages.openMic.noSignedUrl);
  return { signedUrl: body.signedUrl, callToken: body.callToken };
}

export interface SavedLine {
  conversationId: string | null;
  saved: boolean;
  creditsExhausted: boolean;
  /** Moderation judged the line severe: the saved conversation keeps `notice` in its place. */
  withheld?: boolean;
  notice?: string;
}

export function saveAgentLine(
  personalityId: string,
  line: { conversationId: string | null; role: 'user' | 'assistant'; content: string; callToken?: string },
): Promise<SavedLine> {
  return postJson<SavedLine>(agentPath(personalityId, 'transcript'), line, messages.openMic.lineNotSaved);
}
