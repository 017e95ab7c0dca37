// `npm run fakes`: starts the loopback provider fakes by hand, for a manual run of the app
// against them. FAKE_CHAT_PORT (default 4010), FAKE_CHAT_MODE (reply|echo|fail),
// FAKE_CHAT_DELAY_MS. Change behaviour while running: POST /__fake/chat {"mode":"echo"}.
import { startFakeChat, type FakeChatMode } from './openai-chat-fake';
import { startFakeOpenAI } from './openai-fake';
import { startFakeElevenLabs } from './elevenlabs-fake';

const chat = await startFakeChat(
  {
    mode: (process.env.FAKE_CHAT_MODE as FakeChatMode | undefined) ?? 'reply',
    delayMs: Number(process.env.FAKE_CHAT_DELAY_MS ?? 40),
  },
  Number(process.env.FAKE_CHAT_PORT ?? 4010),
);
console.log(`fake chat completions: ${chat.url}/chat/completions (mode ${chat.settings.mode})`);
console.log(`run the app with: LLM_BASE_URL=${chat.url} LLM_API_KEY=fake LLM_MODEL=fake-model npm run dev`);
console.log(`switch behaviour: curl -XPOST ${chat.url.replace(/\/v1$/, '')}/__fake/chat -d '{"mode":"echo"}'`);

// Embeddings (and chat) on one more port: FAKE_OPENAI_PORT (default 4011), FAKE_EMBEDDING_DIMENSIONS.
const openai = await startFakeOpenAI({
  port: Number(process.env.FAKE_OPENAI_PORT ?? 4011),
  dimensions: Number(process.env.FAKE_EMBEDDING_DIMENSIONS ?? 256),
});
console.log(`fake embeddings: ${openai.url}/embeddings`);
console.log(`run the app with embeddings: LLM_BASE_URL=${openai.url} EMBEDDING_MODEL=fake-embedding npm run dev`);

console.log(`fake audio (same port): ${openai.url}/audio/transcriptions and ${openai.url}/audio/speech; switch: POST /__fake/audio`);
console.log(`run the app with voice: OPENAI_BASE_URL=${openai.url} OPENAI_API_KEY=fake`);

// ElevenLabs text-to-speech streaming: FAKE_ELEVENLABS_PORT (default 4012).
const elevenlabs = await startFakeElevenLabs({ port: Number(process.env.FAKE_ELEVENLABS_PORT ?? 4012) });
console.log(`fake ElevenLabs: ELEVENLABS_BASE_URL=${elevenlabs.url} ELEVENLABS_API_KEY=fake; switch: POST ${elevenlabs.url}/__fake/elevenlabs {"fail":"quota"}`);

const stop = async () => {
  await elevenlabs.close();
  await openai.close();
  await chat.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
