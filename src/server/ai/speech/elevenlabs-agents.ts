// ElevenLabs conversational agents through the official SDK: the server asks for a signed URL
// (GET {ELEVENLABS_BASE_URL}/v1/convai/conversation/get-signed-url?agent_id=...), which lets the
// browser open the agent's websocket for ~15 minutes without ever seeing the API key.
import { elevenLabsClient, elevenLabsErrorDetail, elevenLabsHttpError } from './elevenlabs-client';
import { networkError, SpeechProviderError } from './speech-types';

export interface VoiceAgents {
  signedUrl(agentId: string, signal?: AbortSignal): Promise<string>;
}

export function createElevenLabsAgents(options: { baseUrl?: string; apiKey: string }): VoiceAgents {
  const client = elevenLabsClient(options, 15);
  return {
    async signedUrl(agentId, signal) {
      try {
        const res = await (await client()).conversationalAi.conversations.getSignedUrl({ agentId }, { abortSignal: signal, maxRetries: 0 });
        return res.signedUrl ?? '';
      } catch (err) {
        const answered = elevenLabsHttpError(err);
        if (answered) {
          const message = elevenLabsErrorDetail(answered).message.slice(0, 300);
          throw new SpeechProviderError(answered.statusCode === 429 ? 'rate_limit' : 'failed', message, answered.statusCode);
        }
        throw networkError(err, 'ElevenLabs');
      }
    },
  };
}
