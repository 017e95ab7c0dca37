// ElevenLabs conversational agents, loopback fake of the real wire protocol the official browser
// client (@elevenlabs/client) speaks:
//   GET /v1/convai/conversation/get-signed-url?agent_id=A  (xi-api-key) -> { signed_url }
//   websocket {signed_url} with subprotocol "convai":
//     client: conversation_initiation_client_data; then user_audio_chunk (base64 16 kHz PCM16), pong
//     server: conversation_initiation_metadata first; then ping, audio, agent_response,
//             user_transcript, interruption
// The fake listens to the microphone audio with a plain energy detector: a stretch of sound then
// a pause is one user turn, answered with a transcript, a reply and reply audio; sound while the
// reply is still "playing" is an interruption. Failures on demand: 'drop_on_connect' (the socket
// is destroyed without a close frame: the browser sees code 1006), 'drop_mid_call' (the same after
// the first reply), 'no_signed_url' (200 with an empty body field), 'unknown_agent' (404).
import crypto from 'node:crypto';
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';

export type ConvaiFailure = 'none' | 'drop_on_connect' | 'drop_mid_call' | 'no_signed_url' | 'unknown_agent';

export interface ConvaiSettings {
  fail: ConvaiFailure;
  /** What the fake "hears" in each user turn. */
  userTranscript: string;
  /** The agent's answer to each turn (the first message is the greeting). */
  reply: string;
  greeting: string;
  /** Seconds of reply audio sent per answer. */
  replyAudioSeconds: number;
  /** Before answering get-signed-url (the real round trip to ElevenLabs). */
  signedUrlDelayMs: number;
}

export interface ConvaiRecord {
  signedUrlRequests: { agentId: string | null; apiKey: string | undefined }[];
  sessions: { agentId: string; conversationId: string; protocol: string; initiated: boolean; audioChunks: number; pongs: number; turns: number; interruptions: number; closedByClient: boolean }[];
}

export interface FakeConvai {
  settings: ConvaiSettings;
  record: ConvaiRecord;
  set(settings: Partial<ConvaiSettings>): void;
  /** Handles the HTTP part; false when the request is not for the agents API. */
  handle(req: http.IncomingMessage, res: http.ServerResponse, url: URL): boolean;
}

const SAMPLE_RATE = 16000;
const SPEECH_RMS = 500;
const TURN_MIN_SPEECH_MS = 250;
const TURN_END_SILENCE_MS = 500;

/** base64 of `seconds` of a soft 16 kHz PCM16 tone, the agent's "voice". */
function pcmTone(seconds: number): string {
  const n = Math.round(seconds * SAMPLE_RATE);
  const buf = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i++) buf.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 220 * i) / SAMPLE_RATE) * 3000), i * 2);
  return buf.toString('base64');
}

function rms(pcm: Buffer): number {
  let sum = 0;
  const n = Math.floor(pcm.length / 2);
  for (let i = 0; i < n; i++) {
    const v = pcm.readInt16LE(i * 2);
    sum += v * v;
  }
  return n ? Math.sqrt(sum / n) : 0;
}

export function attachConvai(server: http.Server, baseUrl: () => string, initial: Partial<ConvaiSettings> = {}): FakeConvai {
  const settings: ConvaiSettings = {
    fail: 'none',
    userTranscript: 'Hello, can you hear me?',
    reply: 'Yes, I can hear you clearly. What would you like to talk about?',
    greeting: 'Hi! I am your voice agent.',
    replyAudioSeconds: 1.5,
    signedUrlDelayMs: 0,
    ...initial,
  };
  const record: ConvaiRecord = { signedUrlRequests: [], sessions: [] };
  const signatures = new Map<string, string>();
  const wss = new WebSocketServer({ noServer: true, handleProtocols: (protocols) => (protocols.has('convai') ? 'convai' : false) });

  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const agentId = signatures.get(url.searchParams.get('conversation_signature') ?? '');
    if (url.pathname !== '/v1/convai/conversation' || !agentId || url.searchParams.get('agent_id') !== agentId) {
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    if (settings.fail === 'drop_on_connect') {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => session(ws, agentId));
  });

  function session(ws: WebSocket, agentId: string) {
    const s = { agentId, conversationId: `conv_${crypto.randomUUID().slice(0, 12)}`, protocol: ws.protocol, initiated: false, audioChunks: 0, pongs: 0, turns: 0, interruptions: 0, closedByClient: false };
    record.sessions.push(s);
    let eventId = 0;
    let speechMs = 0;
    let silenceMs = 0;
    let agentSpeakingUntil = 0;
    const send = (event: unknown) => ws.readyState === ws.OPEN && ws.send(JSON.stringify(event));
    const speak = (text: string) => {
      eventId += 1;
      send({ type: 'agent_response', agent_response_event: { agent_response: text, event_id: eventId } });
      // The audio in ~250 ms pieces, as the real service streams it.
      const pieces = Math.max(1, Math.round(settings.replyAudioSeconds / 0.25));
      for (let i = 0; i < pieces; i++) send({ type: 'audio', audio_event: { audio_base_64: pcmTone(0.25), event_id: eventId } });
      agentSpeakingUntil = Date.now() + settings.replyAudioSeconds * 1000;
    };
    const ping = setInterval(() => send({ type: 'ping', ping_event: { event_id: ++eventId, ping_ms: 20 } }), 2000);
    ws.on('close', (code) => {
      clearInterval(ping);
      s.closedByClient = code === 1000;
    });
    ws.on('message', (data) => {
      let msg: { type?: string; user_audio_chunk?: string; event_id?: number };
      try {
        msg = JSON.parse(String(data));
      } catch {
        return;
      }
      if (msg.type === 'conversation_initiation_client_data' && !s.initiated) {
        s.initiated = true;
        send({
          type: 'conversation_initiation_metadata',
          conversation_initiation_metadata_event: { conversation_id: s.conversationId, agent_output_audio_format: 'pcm_16000', user_input_audio_format: 'pcm_16000' },
        });
        speak(settings.greeting);
        return;
      }
      if (msg.type === 'pong') {
        s.pongs += 1;
        return;
      }
      if (msg.user_audio_chunk !== undefined) {
        s.audioChunks += 1;
        const pcm = Buffer.from(msg.user_audio_chunk, 'base64');
        const ms = (pcm.length / 2 / SAMPLE_RATE) * 1000;
        if (rms(pcm) >= SPEECH_RMS) {
          if (speechMs === 0 && Date.now() < agentSpeakingUntil) {
            s.interruptions += 1;
            agentSpeakingUntil = 0;
            send({ type: 'interruption', interruption_event: { event_id: eventId } });
          }
          speechMs += ms;
          silenceMs = 0;
        } else if (speechMs > 0) {
          silenceMs += ms;
          if (silenceMs >= TURN_END_SILENCE_MS) {
            const long = speechMs >= TURN_MIN_SPEECH_MS;
            speechMs = 0;
            silenceMs = 0;
            if (!long) return;
            s.turns += 1;
            eventId += 1;
            send({ type: 'user_transcript', user_transcription_event: { user_transcript: settings.userTranscript, event_id: eventId } });
            speak(settings.reply);
            if (settings.fail === 'drop_mid_call') setTimeout(() => (ws as unknown as { _socket?: Duplex })._socket?.destroy(), 300);
          }
        }
      }
    });
  }

  return {
    settings,
    record,
    set: (next) => void Object.assign(settings, next),
    handle(req, res, url) {
      if (url.pathname !== '/v1/convai/conversation/get-signed-url') return false;
      const agentId = url.searchParams.get('agent_id');
      const apiKey = req.headers['xi-api-key'] as string | undefined;
      record.signedUrlRequests.push({ agentId, apiKey });
      const json = (status: number, body: unknown) => void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.method !== 'GET') return json(405, { detail: 'Method Not Allowed' }), true;
      if (!apiKey) return json(401, { detail: { status: 'needs_authorization', message: 'Neither authorization header nor xi-api-key received, please provide one.' } }), true;
      if (!agentId || settings.fail === 'unknown_agent') return json(404, { detail: { status: 'agent_not_found', message: `Agent with id ${agentId} not found` } }), true;
      if (settings.fail === 'no_signed_url') return json(200, { signed_url: '' }), true;
      const signature = crypto.randomBytes(12).toString('hex');
      signatures.set(signature, agentId);
      const wsBase = baseUrl().replace(/^http/, 'ws');
      const answer = () => json(200, { signed_url: `${wsBase}/v1/convai/conversation?agent_id=${encodeURIComponent(agentId)}&conversation_signature=${signature}` });
      if (settings.signedUrlDelayMs > 0) setTimeout(answer, settings.signedUrlDelayMs);
      else answer();
      return true;
    },
  };
}
