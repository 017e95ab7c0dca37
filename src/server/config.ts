// The only reader of process.env. Every setting is validated once here and has an embedded
// default or is optional, so `npm start` works on a fresh machine with no keys and no servers.
import { z } from 'zod';
import path from 'node:path';

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));

/**
 * An optional address with one of `schemes`: a value the server would only trip over later (a
 * base URL without "http://" failed deep in a provider's client with "Invalid URL") is refused at
 * start-up, naming the variable.
 */
function optionalUrl(...schemes: string[]) {
  return optionalString.refine(
    (v) => {
      if (v === undefined) return true;
      try {
        return schemes.includes(new URL(v).protocol.replace(/:$/, ''));
      } catch {
        return false;
      }
    },
    { message: `must be a full address starting with ${schemes.map((s) => `${s}://`).join(' or ')}` },
  );
}
const httpUrl = optionalUrl('http', 'https');

/**
 * ElevenLabs' address as its SDK wants it, the host alone: the SDK adds "/v1/..." itself, so a base
 * written the OpenAI way ("https://api.elevenlabs.io/v1") would send every call to /v1/v1/... .
 */
function elevenLabsRoot(url: string | undefined): string | undefined {
  return url?.replace(/\/+$/, '').replace(/\/v1$/, '');
}

/** Azure Speech's address without the path Kindred adds: a full recognition URL (as the Speech SDK's fromEndpoint takes it) works too. */
function azureSpeechRoot(url: string | undefined): string | undefined {
  return url
    ?.replace(/[?#].*$/, '')
    .replace(/\/+$/, '')
    .replace(/\/speech\/recognition\/conversation\/cognitiveservices\/v1$/, '');
}

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  DATA_DIR: z.string().default('./data'),
  // The built front end to serve (default dist/web). Lets several builds be tested side by side.
  WEB_ROOT: optionalString,
  DATABASE_URL: optionalUrl('postgres', 'postgresql'),
  PUBLIC_URL: httpUrl,
  AUTH_SECRET: optionalString,
  ADMIN_EMAILS: optionalString,
  SMTP_URL: optionalUrl('smtp', 'smtps'),
  SMTP_FROM: optionalString,
  LLM_BASE_URL: httpUrl,
  LLM_API_KEY: optionalString,
  LLM_MODEL: optionalString,
  // Silence from the model server (before its answer or between pieces) after which a reply fails.
  LLM_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).default(90_000),
  // The longest reply in tokens (max_tokens); 0 sends no bound.
  LLM_MAX_TOKENS: z.coerce.number().int().min(0).default(1024),
  // How long a question's embedding may take before the reply goes ahead on full-text search.
  EMBEDDING_QUERY_TIMEOUT_MS: z.coerce.number().int().min(50).default(3000),
  EMBEDDING_MODEL: optionalString,
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: httpUrl,
  ELEVENLABS_API_KEY: optionalString,
  ELEVENLABS_BASE_URL: httpUrl,
  AZURE_SPEECH_KEY: optionalString,
  AZURE_SPEECH_REGION: optionalString,
  AZURE_SPEECH_ENDPOINT: httpUrl,
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  // An upload body (recording, document, voice sample) that sends nothing for this long is given up: 408.
  UPLOAD_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  // Rate limits can be loosened for load tests; defaults are what a public deployment wants.
  RATE_LIMIT_AUTH_PER_15MIN: z.coerce.number().int().positive().default(30),
  RATE_LIMIT_FEEDBACK_PER_HOUR: z.coerce.number().int().positive().default(20),
  RATE_LIMIT_CHAT_PER_MINUTE: z.coerce.number().int().positive().default(30),
  RATE_LIMIT_URL_IMPORT_PER_HOUR: z.coerce.number().int().positive().default(30),
  RATE_LIMIT_UPLOADS_PER_HOUR: z.coerce.number().int().positive().default(60),
  RATE_LIMIT_REPROCESS_PER_HOUR: z.coerce.number().int().positive().default(60),
  RATE_LIMIT_PERSONALITIES_PER_HOUR: z.coerce.number().int().positive().default(60),
  RATE_LIMIT_SHARES_PER_HOUR: z.coerce.number().int().positive().default(60),
  RATE_LIMIT_VERIFICATION_EMAIL_PER_HOUR: z.coerce.number().int().positive().default(5),
  /** Wrong passwords for one account from one address before sign-in backs off (1 s, 2 s, 4 s ... 15 min). */
  SIGN_IN_FAILURES_BEFORE_BACKOFF: z.coerce.number().int().positive().default(5),
  /** Wrong passwords for one account, from every address, in 15 minutes before only addresses it signed in from may try. */
  SIGN_IN_FAILURES_PER_ACCOUNT: z.coerce.number().int().positive().default(20),
  /** Open document event streams per user and per address. */
  EVENT_STREAMS_PER_CLIENT: z.coerce.number().int().positive().default(10),
  /** Upload bodies being read at once per user and per address (uploads-at-once.ts). */
  UPLOADS_AT_ONCE_PER_CLIENT: z.coerce.number().int().positive().default(6),
  /** How often a live document stream re-reads the database besides being told of changes (and re-checks the session). */
  DOCUMENT_STREAM_POLL_MS: z.coerce.number().int().min(100).default(2000),
  /** OpenAI-compatible moderation model (e.g. omni-moderation-latest) on OPENAI_BASE_URL; unset: the offline classifier. */
  MODERATION_MODEL: optionalString,
  /** Confidence from which content is flagged for review (0-1). */
  MODERATION_THRESHOLD: z.coerce.number().min(0).max(1).default(0.5),
  /** Flag types that are never sent to the model (a person's message) or shown (a reply). */
  MODERATION_SEVERE_TYPES: z.string().default('sexual/minors,violence/threat,self-harm/instructions'),
  /** Reverse proxies whose X-Forwarded-For is believed (comma-separated addresses; empty: none). */
  TRUSTED_PROXIES: optionalString,
  // Documents: chunking, extraction bounds, URL import, background jobs.
  CHUNK_SIZE: z.coerce.number().int().min(100).max(20000).default(1000),
  CHUNK_OVERLAP: z.coerce.number().int().min(0).max(5000).default(0),
  EMBEDDING_BATCH_SIZE: z.coerce.number().int().min(1).max(2048).default(64),
  EXTRACT_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
  EXTRACT_MAX_PAGES: z.coerce.number().int().positive().default(2000),
  EXTRACT_MAX_UNPACKED_MB: z.coerce.number().int().positive().default(64),
  EXTRACT_MEMORY_MB: z.coerce.number().int().min(64).default(256),
  // Everything one person's documents may take in storage (0: no limit). Sign-up is open.
  STORAGE_QUOTA_MB: z.coerce.number().int().min(0).default(1024),
  URL_IMPORT_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
  // Test-only: lets URL import reach 127.0.0.0/8 and ::1 (never any other private address).
  URL_IMPORT_ALLOW_LOOPBACK: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  JOB_CONCURRENCY: z.coerce.number().int().min(0).max(16).default(1),
  JOB_LEASE_SECONDS: z.coerce.number().int().min(1).default(30),
  JOB_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(3),
  JOB_POLL_MS: z.coerce.number().int().min(10).default(1000),
  JOB_RETRY_BASE_MS: z.coerce.number().int().min(0).default(5000),
  JOB_SLICE_MS: z.coerce.number().int().min(0).default(10_000),
  DISK_RESERVE_MB: z.coerce.number().int().min(0).default(256),
  HOUSEKEEPING_INTERVAL_MS: z.coerce.number().int().min(1000).default(60 * 60_000),
  // Voice (issue 12). Speech-to-text on any OpenAI-compatible /audio/transcriptions (base URL ends in /v1).
  STT_BASE_URL: httpUrl,
  STT_API_KEY: optionalString,
  STT_MODEL: z.string().default('whisper-1'),
  TTS_MODEL: z.string().default('tts-1'),
  ELEVENLABS_MODEL: z.string().default('eleven_flash_v2_5'),
  /** Embedded speech: auto (use what the machine has) or off. */
  VOICE_OFFLINE_STT: z.enum(['auto', 'off']).default('auto'),
  /** Embedded synthesizer for the default voice: auto (festival when installed, else flite), flite, festival, off (browser). */
  VOICE_OFFLINE_TTS: z.enum(['auto', 'flite', 'festival', 'off']).default('auto'),
  /** ElevenLabs characters per UTC day, for everyone together. */
  VOICE_DAILY_CREDIT_LIMIT: z.coerce.number().int().min(0).default(50000),
  /**
   * Paid-voice (OpenAI, ElevenLabs) characters one visitor may have spoken per UTC day: a signed-in
   * person by account, others by address. 0: no per-visitor budget.
   */
  VOICE_DAILY_CHARACTERS_PER_VISITOR: z.coerce.number().int().min(0).default(20000),
  /** Cloned voices one account's personalities may hold (each is a slot of the ElevenLabs plan). 0: no cap. */
  VOICE_CLONES_PER_ACCOUNT: z.coerce.number().int().min(0).default(5),
  VOICE_MAX_RECORDING_SECONDS: z.coerce.number().int().min(1).max(600).default(60),
  /** Open mic: how long a pause ends the person's turn (voice activity detection in the browser). */
  VOICE_END_OF_TURN_MS: z.coerce.number().int().min(200).max(5000).default(900),
  RATE_LIMIT_VOICE_PER_MINUTE: z.coerce.number().int().positive().default(20),
  /** Speech is asked for sentence by sentence: one reply is several requests. */
  RATE_LIMIT_SPEECH_PER_MINUTE: z.coerce.number().int().positive().default(200),
  RATE_LIMIT_VOICE_CLONE_PER_HOUR: z.coerce.number().int().positive().default(10),
  // Object storage (S3-compatible) instead of DATA_DIR/blobs: selected by S3_BUCKET.
  S3_ENDPOINT: httpUrl,
  S3_BUCKET: optionalString,
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true' || v === '1')),
});

export type Env = z.infer<typeof envSchema>;

/** Every environment variable the server reads (deploy files are checked against it). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

export interface AppConfig {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  dataDir: string;
  webRoot?: string;
  databaseUrl?: string;
  publicUrl: string;
  authSecret?: string;
  adminEmails: string[];
  smtpUrl?: string;
  smtpFrom: string;
  llm: { baseUrl?: string; apiKey?: string; model?: string; embeddingModel?: string; idleTimeoutMs: number; maxTokens: number; queryEmbeddingTimeoutMs: number };
  openai: { apiKey?: string; baseUrl?: string };
  elevenlabs: { apiKey?: string; baseUrl?: string };
  azureSpeech: { key?: string; region?: string; endpoint?: string };
  voice: {
    sttBaseUrl?: string;
    sttApiKey?: string;
    sttModel: string;
    ttsModel: string;
    elevenlabsModel: string;
    offlineStt: 'auto' | 'off';
    offlineTts: 'auto' | 'flite' | 'festival' | 'off';
    dailyCreditLimit: number;
    /** Paid-voice characters per visitor per UTC day (0: none). */
    dailyCharactersPerVisitor: number;
    /** Cloned voices per account (0: no cap). */
    clonesPerAccount: number;
    endOfTurnMs: number;
    maxRecordingSeconds: number;
  };
  logLevel: Env['LOG_LEVEL'];
  /** How long an upload's body may stop arriving before it is given up (408). */
  uploadIdleTimeoutMs: number;
  rateLimits: {
    authPer15Min: number;
    feedbackPerHour: number;
    chatPerMinute: number;
    urlImportPerHour: number;
    uploadsPerHour: number;
    /** Process and Rechunk of a stored document (each redoes its paid work: transcription, embedding, moderation). */
    reprocessPerHour: number;
    /** Personalities created, and people added to shares, per user each hour (anyone who knows an e-mail can share with it). */
    personalitiesPerHour: number;
    sharesPerHour: number;
    verificationEmailPerHour: number;
    signInFailuresBeforeBackoff: number;
    signInFailuresPerAccount: number;
    eventStreamsPerClient: number;
    uploadsAtOncePerClient: number;
    documentStreamPollMs: number;
    voicePerMinute: number;
    speechPerMinute: number;
    voiceClonePerHour: number;
  };
  trustedProxies: string[];
  /** How often expired rows (rate-limit windows, sessions...) are removed (jobs/housekeeping.ts). */
  housekeepingIntervalMs: number;
  moderation: { model?: string; threshold: number; severeTypes: string[] };
  documents: {
    chunkSize: number;
    chunkOverlap: number;
    embeddingBatchSize: number;
    extractTimeoutMs: number;
    extractMaxPages: number;
    extractMaxUnpackedBytes: number;
    extractMemoryMb: number;
    urlImportTimeoutMs: number;
    urlImportAllowLoopback: boolean;
    /** Bytes one person's documents may take together; 0: no limit. */
    storageQuotaBytes: number;
    /** Documents are refused while the data folder's disk would be left with less than this free. */
    diskReserveBytes: number;
  };
  /** S3-compatible object storage; unset: files under DATA_DIR/blobs. */
  s3?: { endpoint?: string; bucket: string; region: string; accessKeyId?: string; secretAccessKey?: string; forcePathStyle: boolean };
  /** concurrency 0 means this process runs no jobs (another process does). */
  jobs: {
    concurrency: number;
    leaseSeconds: number;
    maxAttempts: number;
    pollMs: number;
    retryBaseMs: number;
    /** A long document's embedding steps aside for waiting jobs after this long (0: at every batch). */
    sliceMs: number;
  };
}

export function parseEmailList(value: string | undefined): string[] {
  if (!value) return [];
  return value
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e.length > 0);
}

/** Raised for a setting the server cannot start with; its message names the variable. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/**
 * The documented rule "empty values count as unset": `NAME=` in an env file or a compose file
 * must mean the default, not zero (JOB_CONCURRENCY= ran no jobs, MODERATION_THRESHOLD= flagged
 * everything) nor an empty string (HOST= listened on every interface).
 */
function withoutEmptyValues(source: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(source).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1].trim() !== ''));
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = envSchema.safeParse(withoutEmptyValues(source));
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`Invalid configuration: ${details}`);
  }
  const e = parsed.data;
  const port = e.PORT;
  if (e.S3_ENDPOINT && !e.S3_BUCKET) throw new ConfigError('Invalid configuration: S3_ENDPOINT is set but S3_BUCKET is not');
  return {
    env: e.NODE_ENV,
    port,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    webRoot: e.WEB_ROOT ? path.resolve(e.WEB_ROOT) : undefined,
    databaseUrl: e.DATABASE_URL,
    publicUrl: (e.PUBLIC_URL ?? `http://${e.HOST === '0.0.0.0' ? '127.0.0.1' : e.HOST}:${port}`).replace(/\/$/, ''),
    authSecret: e.AUTH_SECRET,
    adminEmails: parseEmailList(e.ADMIN_EMAILS),
    smtpUrl: e.SMTP_URL,
    smtpFrom: e.SMTP_FROM ?? 'Kindred <no-reply@kindred.local>',
    llm: {
      baseUrl: e.LLM_BASE_URL,
      apiKey: e.LLM_API_KEY,
      model: e.LLM_MODEL,
      idleTimeoutMs: e.LLM_IDLE_TIMEOUT_MS,
      maxTokens: e.LLM_MAX_TOKENS,
      queryEmbeddingTimeoutMs: e.EMBEDDING_QUERY_TIMEOUT_MS,
      embeddingModel: e.EMBEDDING_MODEL,
    },
    openai: { apiKey: e.OPENAI_API_KEY, baseUrl: e.OPENAI_BASE_URL },
    elevenlabs: { apiKey: e.ELEVENLABS_API_KEY, baseUrl: elevenLabsRoot(e.ELEVENLABS_BASE_URL) },
    azureSpeech: { key: e.AZURE_SPEECH_KEY, region: e.AZURE_SPEECH_REGION, endpoint: azureSpeechRoot(e.AZURE_SPEECH_ENDPOINT) },
    voice: {
      sttBaseUrl: e.STT_BASE_URL,
      sttApiKey: e.STT_API_KEY,
      sttModel: e.STT_MODEL,
      ttsModel: e.TTS_MODEL,
      elevenlabsModel: e.ELEVENLABS_MODEL,
      offlineStt: e.VOICE_OFFLINE_STT,
      offlineTts: e.VOICE_OFFLINE_TTS,
      dailyCreditLimit: e.VOICE_DAILY_CREDIT_LIMIT,
      dailyCharactersPerVisitor: e.VOICE_DAILY_CHARACTERS_PER_VISITOR,
      clonesPerAccount: e.VOICE_CLONES_PER_ACCOUNT,
      maxRecordingSeconds: e.VOICE_MAX_RECORDING_SECONDS,
      endOfTurnMs: e.VOICE_END_OF_TURN_MS,
    },
    logLevel: e.LOG_LEVEL,
    uploadIdleTimeoutMs: e.UPLOAD_IDLE_TIMEOUT_MS,
    rateLimits: {
      authPer15Min: e.RATE_LIMIT_AUTH_PER_15MIN,
      feedbackPerHour: e.RATE_LIMIT_FEEDBACK_PER_HOUR,
      chatPerMinute: e.RATE_LIMIT_CHAT_PER_MINUTE,
      urlImportPerHour: e.RATE_LIMIT_URL_IMPORT_PER_HOUR,
      uploadsPerHour: e.RATE_LIMIT_UPLOADS_PER_HOUR,
      reprocessPerHour: e.RATE_LIMIT_REPROCESS_PER_HOUR,
      personalitiesPerHour: e.RATE_LIMIT_PERSONALITIES_PER_HOUR,
      sharesPerHour: e.RATE_LIMIT_SHARES_PER_HOUR,
      verificationEmailPerHour: e.RATE_LIMIT_VERIFICATION_EMAIL_PER_HOUR,
      signInFailuresBeforeBackoff: e.SIGN_IN_FAILURES_BEFORE_BACKOFF,
      signInFailuresPerAccount: e.SIGN_IN_FAILURES_PER_ACCOUNT,
      eventStreamsPerClient: e.EVENT_STREAMS_PER_CLIENT,
      uploadsAtOncePerClient: e.UPLOADS_AT_ONCE_PER_CLIENT,
      documentStreamPollMs: e.DOCUMENT_STREAM_POLL_MS,
      voicePerMinute: e.RATE_LIMIT_VOICE_PER_MINUTE,
      speechPerMinute: e.RATE_LIMIT_SPEECH_PER_MINUTE,
      voiceClonePerHour: e.RATE_LIMIT_VOICE_CLONE_PER_HOUR,
    },
    moderation: {
      model: e.MODERATION_MODEL,
      threshold: e.MODERATION_THRESHOLD,
      severeTypes: e.MODERATION_SEVERE_TYPES.split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    },
    housekeepingIntervalMs: e.HOUSEKEEPING_INTERVAL_MS,
    trustedProxies: (e.TRUSTED_PROXIES ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    documents: {
      chunkSize: e.CHUNK_SIZE,
      chunkOverlap: Math.min(e.CHUNK_OVERLAP, Math.floor(e.CHUNK_SIZE / 2)),
      embeddingBatchSize: e.EMBEDDING_BATCH_SIZE,
      extractTimeoutMs: e.EXTRACT_TIMEOUT_MS,
      extractMaxPages: e.EXTRACT_MAX_PAGES,
      extractMaxUnpackedBytes: e.EXTRACT_MAX_UNPACKED_MB * 1024 * 1024,
      extractMemoryMb: e.EXTRACT_MEMORY_MB,
      urlImportTimeoutMs: e.URL_IMPORT_TIMEOUT_MS,
      urlImportAllowLoopback: e.URL_IMPORT_ALLOW_LOOPBACK,
      storageQuotaBytes: e.STORAGE_QUOTA_MB * 1024 * 1024,
      diskReserveBytes: e.DISK_RESERVE_MB * 1024 * 1024,
    },
    s3: e.S3_BUCKET
      ? {
          endpoint: e.S3_ENDPOINT,
          bucket: e.S3_BUCKET,
          region: e.S3_REGION,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          // A custom endpoint (MinIO, Garage, s3rver) usually needs path-style; AWS itself does not.
          forcePathStyle: e.S3_FORCE_PATH_STYLE ?? Boolean(e.S3_ENDPOINT),
        }
      : undefined,
    jobs: {
      concurrency: e.JOB_CONCURRENCY,
      leaseSeconds: e.JOB_LEASE_SECONDS,
      maxAttempts: e.JOB_MAX_ATTEMPTS,
      pollMs: e.JOB_POLL_MS,
      retryBaseMs: e.JOB_RETRY_BASE_MS,
      sliceMs: e.JOB_SLICE_MS,
    },
  };
}
