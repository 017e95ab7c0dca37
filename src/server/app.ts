// Builds the Hono app from its dependencies. Nothing here reads the environment or listens:
// main.ts does that, and tests build the same app around a fresh database and fake providers.
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import type { Context } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { HTTPException } from 'hono/http-exception';
import { serveStatic } from '@hono/node-server/serve-static';
import { createSharedAssets, type SharedAssets } from './web/shared-assets';
import fs from 'node:fs';
import path from 'node:path';
import type { AppConfig } from './config';
import type { Database, DatabaseHandle } from './db/client';
import { sql } from 'drizzle-orm';
import type { Logger } from './lib/logger';
import type { Clock } from './lib/clock';
import { AppError, errorBody, isUnstorableText } from './lib/errors';
import { describeRoutes, jsonResponse, validationHook } from './lib/openapi';
import { createAuth } from './auth/auth';
import type { Mailer } from './auth/mailer';
import { sessionMiddleware, type AppEnv, type Viewer } from './auth/session';
import { createSessionCache } from './auth/session-cache';
import { invalidationBus } from './lib/invalidation-bus';
import { rateLimit, rateLimitBeside, rateLimitCounter, rateLimitsCounter } from './modules/rate-limits/rate-limits.middleware';
import { serverTiming } from './lib/server-timing';
import { createPersonalityService } from './modules/personalities/personalities.service';
import { personalityRoutes } from './modules/personalities/personalities.routes';
import { feedbackRoutes } from './modules/feedback/feedback.routes';
import { meRoutes } from './modules/me/me.routes';
import { DELETE_ACCOUNT_PATH, removeOwnedPersonalities, requirePasswordToDeleteAccount } from './modules/me/account-deletion';
import { createDocumentsModule } from './modules/documents/documents.module';
import { documentRoutes } from './modules/documents/documents.routes';
import { isStreamedUploadPath } from './modules/documents/upload-paths';
import type { BlobStorage } from './storage/storage';
import { createSharingService } from './modules/sharing/sharing.service';
import { sharingRoutes } from './modules/sharing/sharing.routes';
import { createAdminService } from './modules/admin/admin.service';
import { adminRoutes } from './modules/admin/admin.routes';
import { createConversationsModule } from './modules/conversations/conversations.module';
import { createCharacterCardService } from './modules/character-cards/character-cards.service';
import { characterCardRoutes } from './modules/character-cards/character-cards.routes';
import { isCardUploadPath } from './modules/character-cards/card-upload';
import { messages } from '../shared/messages';
import { clientAddressMiddleware } from './security/client-address';
import { sameOriginWrites } from './security/origin-check';
import { bodyField, declaredBody, jsonTextGuard } from './security/json-text-guard';
import { signInGuard } from './security/sign-in-guard';
import { createModerationService } from './modules/moderation/moderation.service';
import { createReplyTokens } from './modules/moderation/reply-token';
import { contentFlagRoutes, reportRoutes } from './modules/moderation/moderation.routes';
import { createModerator } from './ai/providers';
import { forceRevokeOtherSessions } from './security/request-hygiene';
import { limits } from '../shared/limits';
import { createPronunciationAssessor, createSpeechSynthesizers, createSpeechToText, createVoiceAgents, createVoiceCloning } from './ai/providers';
import { createVoiceAgentService, voiceAgentRoutes } from './modules/voice/voice-agent';
import { createAgentCallCredits } from './modules/voice/agent-call-credits';
import { createVoiceService } from './modules/voice/voice.service';
import { voiceMonitoringRoutes, voicePersonalityRoutes, voiceRoutes } from './modules/voice/voice.routes';
import { isVoiceUploadPath } from './modules/voice/voice-upload';
import { isVoiceTurnPath, voiceTurnRoutes } from './modules/voice/voice-turn.routes';
import { uploadsAtOnce } from './security/uploads-at-once';
import { isAudioUploadPath } from './modules/documents/documents-audio-upload';
import { isCloneUploadPath, removeClonedVoiceOnDelete } from './modules/voice/voice-clone';
import { createVoiceCloneCleanup } from './modules/voice/voice-clone-cleanup';
import { createAudioTranscriber } from './modules/documents/audio-transcriber';

export interface AppDeps {
  config: AppConfig;
  database: DatabaseHandle;
  logger: Logger;
  mailer: Mailer;
  clock: Clock;
  authSecret: string;
  /** Folder of the built front end; when set it is served with an SPA fallback. */
  webRoot?: string;
  /** Blob storage; defaults to files under DATA_DIR/blobs. */
  storage?: BlobStorage;
}

/** Requests whose body is an upload (a file, a recording), read by its route under its own limits. */
const isUploadRequest = (method: string, path: string) =>
  isStreamedUploadPath(method, path) ||
  isAudioUploadPath(method, path) ||
  isCloneUploadPath(method, path) ||
  isCardUploadPath(method, path) ||
  isVoiceUploadPath(method, path) ||
  isVoiceTurnPath(method, path);

export function createApp(deps: AppDeps) {
  const { config, database, logger, clock } = deps;
  const db = database.db;
  const replyTokens = createReplyTokens(deps.authSecret);
  const moderation = createModerationService({ db, clock, logger, moderator: createModerator(config), severeTypes: config.moderation.severeTypes, replyTokens });
  // One speech-to-text provider for chat recordings and for audio documents.
  const speechToText = createSpeechToText(config);
  const documents = createDocumentsModule({
    config,
    database,
    logger,
    clock,
    storage: deps.storage,
    moderation,
    transcriber: speechToText ? createAudioTranscriber(speechToText) : undefined,
  });
  // Deleting a personality also removes its stored files (rows cascade in the database).
  const cloning = createVoiceCloning(config);
  // Clones nothing uses any more are removed at ElevenLabs, by a background job when it fails.
  const cloneCleanup = createVoiceCloneCleanup({ db, logger, cloning });
  const cloneDeps = { db, logger, cloning, cleanup: cloneCleanup, clonesPerAccount: config.voice.clonesPerAccount };
  const personalities = createPersonalityService(db, [documents.onPersonalityDeleted, removeClonedVoiceOnDelete(cloneDeps)]);
  const auth = createAuth({
    db,
    secret: deps.authSecret,
    publicUrl: config.publicUrl,
    trustedOrigins: trustedOrigins(config.publicUrl),
    adminEmails: config.adminEmails,
    mailer: deps.mailer,
    logger,
    secureCookies: config.publicUrl.startsWith('https://'),
    clock,
    verificationEmailPerHour: config.rateLimits.verificationEmailPerHour,
    // Deleting one's account deletes each personality as its owner would: files and cloned voices go too.
    beforeDeleteUser: removeOwnedPersonalities(db, personalities),
  });
  const conversations = createConversationsModule({ config, db, clock, logger, secret: deps.authSecret, vectorStore: database.vectorStore, moderation, replyTokens });

  const voiceAgents = createVoiceAgents(config);
  const voice = createVoiceService({
    db,
    clock,
    logger,
    stt: speechToText,
    synthesizers: createSpeechSynthesizers(config),
    dailyCreditLimit: config.voice.dailyCreditLimit,
    dailyCharactersPerVisitor: config.voice.dailyCharactersPerVisitor,
    maxRecordingSeconds: config.voice.maxRecordingSeconds,
    endOfTurnMs: config.voice.endOfTurnMs,
    agents: Boolean(voiceAgents),
    cloning: Boolean(cloneDeps.cloning),
    pronunciation: createPronunciationAssessor(config),
  });

  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

  app.use(
    '*',
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        // WebAssembly only (no JS eval): the open-mic VAD runs its model with onnxruntime-web.
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // No remote images: a reply or description can never make the browser fetch a tracker.
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'data:', 'blob:'],
        // ElevenLabs agents (open mic): the browser opens the agent's websocket itself.
        connectSrc: ["'self'", ...voiceAgentOrigins(config)],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
      },
      crossOriginEmbedderPolicy: false,
    }),
  );

  app.use('*', clientAddressMiddleware(config.trustedProxies));
  // Where a voice turn's time goes (open mic), as Server-Timing headers.
  app.use('/api/personalities/:id/voice/*', serverTiming());
  app.use('/api/personalities/:id/chat', serverTiming());
  // Writes from another origin (another port of this host included); the auth library checks its own.
  const sameOrigin = sameOriginWrites(trustedOrigins(config.publicUrl));
  app.use('/api/*', (c, next) => (c.req.path.startsWith('/api/auth/') ? next() : sameOrigin(c, next)));
  // JSON bodies are small. A declared length over the limit is answered 413 at once; a chunked
  // body (no declared length) is counted by Hono's bodyLimit as it arrives, and answered 413 as
  // soon as it passes the limit, before it is read whole.
  const tooLarge = (c: Context<AppEnv>) => {
    // The refused body is left unread: the socket cannot carry another request, so say so
    // (Connection: close) and the client opens a new one instead of reusing it and meeting a
    // reset. (Streamed uploads answer their own 413s.)
    c.header('Connection', 'close');
    return c.json(errorBody('PAYLOAD_TOO_LARGE', messages.errors.tooLarge), 413);
  };
  const chunkedBodyLimit = bodyLimit({ maxSize: limits.jsonBodyMaxBytes, onError: tooLarge });
  // Then text no route could store (NUL, lone surrogates, not UTF-8) is refused in one place.
  const textGuard = jsonTextGuard();
  // File uploads stream through their own, larger limits (documents-upload.ts). Every other body
  // with a declared length goes to the text guard untouched: it reads the bytes straight from the
  // socket (@hono/node-server's direct read). Hono's bodyLimit looks at c.req.raw.body first, which
  // builds a whole web Request and stream around the socket: ~0.4 ms of every chat message's CPU
  // (issue 19), so it only sees the chunked bodies it is needed for.
  app.use('/api/*', (c, next) => {
    if (isUploadRequest(c.req.method, c.req.path)) return next();
    const body = declaredBody(c.req.header('content-length'), c.req.header('transfer-encoding'));
    if (body === 'chunked') {
      return chunkedBodyLimit(c, async () => {
        await textGuard(c, next);
      });
    }
    if (body > limits.jsonBodyMaxBytes) return Promise.resolve(tooLarge(c));
    return textGuard(c, next);
  });
  const sessionCache = createSessionCache();
  app.use('/api/*', sessionMiddleware(auth, db, sessionCache));
  // Upload bodies open at once per client, before any budget is counted (one refused spends none).
  const uploadsOpen = uploadsAtOnce(config.rateLimits.uploadsAtOncePerClient);
  app.use('/api/*', (c, next) => (isUploadRequest(c.req.method, c.req.path) ? uploadsOpen(c, next) : next()));

  // Auth limits count the client address (or the target account), never a session cookie.
  const authLimit = { max: config.rateLimits.authPer15Min, windowSeconds: 15 * 60, by: 'address' as const };
  app.use('/api/auth/sign-up/*', rateLimit(db, clock, { endpoint: 'auth/sign-up', ...authLimit }));
  app.use(
    '/api/auth/sign-in/email',
    signInGuard(db, clock, {
      failuresBeforeBackoff: config.rateLimits.signInFailuresBeforeBackoff,
      failuresPerAccount: config.rateLimits.signInFailuresPerAccount,
      failuresPerAddress: config.rateLimits.authPer15Min,
    }),
  );
  app.use('/api/auth/sign-in/*', rateLimit(db, clock, { endpoint: 'auth/sign-in', ...authLimit, max: authLimit.max * 10 }));
  app.use(
    '/api/auth/send-verification-email',
    rateLimit(db, clock, {
      endpoint: 'auth/send-verification-email',
      max: config.rateLimits.verificationEmailPerHour,
      windowSeconds: 3600,
      by: 'address',
      alsoBy: async (c) => {
        const email = await bodyField(c, 'email');
        return email ? `email:${email.trim().toLowerCase().slice(0, 320)}` : undefined;
      },
    }),
  );
  // Changing the password signs the person's other sessions out, whatever the client asked.
  app.use('/api/auth/change-password', forceRevokeOtherSessions());
  // Deleting one's account always takes the password, and counts against the auth limit (password guesses).
  app.use(DELETE_ACCOUNT_PATH, rateLimit(db, clock, { endpoint: 'auth/delete-user', ...authLimit }));
  app.use(DELETE_ACCOUNT_PATH, requirePasswordToDeleteAccount());
  // Chat and URL import cost model calls and fetches: limited per user (per address signed out).
  const chatRule = { endpoint: 'chat', max: config.rateLimits.chatPerMinute, windowSeconds: 60 };
  const chatLimit = rateLimit(db, clock, chatRule);
  app.on('POST', '/api/personalities/:id/chat/preview', chatLimit);
  // The chat itself counts its hit beside the access check and retrieval (chat.routes.ts awaits it).
  app.on('POST', '/api/personalities/:id/chat', rateLimitBeside(db, clock, chatRule));
  // Creating personalities and sharing them: one account made 300 in a minute and shared each
  // with one person (audit X), whose library then took 14 s to show. The person can also remove
  // what was shared with them (DELETE /api/personalities/:id/my-share).
  app.on('POST', '/api/personalities', rateLimit(db, clock, { endpoint: 'personalities/create', max: config.rateLimits.personalitiesPerHour, windowSeconds: 3600 }));
  app.on('POST', '/api/personalities/:id/shares', rateLimit(db, clock, { endpoint: 'shares', max: config.rateLimits.sharesPerHour, windowSeconds: 3600 }));
  app.on('POST', '/api/personalities/:id/reports', rateLimit(db, clock, { endpoint: 'reports', max: config.rateLimits.feedbackPerHour, windowSeconds: 3600 }));
  app.on(
    'POST',
    '/api/personalities/:id/documents/url',
    rateLimit(db, clock, { endpoint: 'documents/url', max: config.rateLimits.urlImportPerHour, windowSeconds: 3600 }),
  );
  // Uploads (documents, recordings, character cards) share one budget per person: each request
  // may carry many megabytes, and sign-up is open, so a fresh account must not fill the disk at will.
  const uploadLimit = rateLimit(db, clock, { endpoint: 'uploads', max: config.rateLimits.uploadsPerHour, windowSeconds: 3600 });
  for (const path of ['/api/personalities/:id/documents', '/api/personalities/:id/documents/audio', '/api/personalities/import', '/api/personalities/import/preview']) {
    app.on('POST', path, uploadLimit);
  }
  // Process and Rechunk redo a stored document's paid work (transcription, embedding, moderation)
  // from the start: a loop of them spent without end (audit U: ten rechunks of one 431 KB document
  // sent 8.6 million characters to embeddings).
  const reprocessLimit = rateLimit(db, clock, { endpoint: 'documents/reprocess', max: config.rateLimits.reprocessPerHour, windowSeconds: 3600 });
  for (const path of ['/api/personalities/:id/documents/:documentId/process', '/api/personalities/:id/documents/:documentId/rechunk']) {
    app.on('POST', path, reprocessLimit);
  }
  // Any signed-in POST to the auth library may end or change sessions (sign-out, change password
  // revoking the others, revoke-session(s), delete-user, update-user): every process's session
  // cache drops that user's entries once it is done, failed or not (session-cache.ts).
  async function authHandlerAnnouncingSessionChanges(req: Request, viewer: Viewer | null): Promise<Response> {
    try {
      return await auth.handler(req);
    } finally {
      // Awaited: once a sign-out has answered, the notice is committed, and another process's
      // cache answers only after catching up with it (InvalidationBus.caughtUp).
      if (viewer && req.method !== 'GET') await invalidationBus().publish('session', viewer.id);
    }
  }
  app.on(['GET', 'POST'], '/api/auth/*', async (c) => {
    const res = await authHandlerAnnouncingSessionChanges(c.req.raw, c.get('viewer'));
    // better-auth answers an unknown auth path with an empty 404; keep the API's JSON error shape.
    if (res.status === 404 && !res.headers.get('content-type')) return c.json(errorBody('NOT_FOUND', 'No such API route'), 404);
    // Its own 5xx answers (rare: unexpected failures are thrown to onError) never send internals.
    if (res.status >= 500) {
      logger.error(`auth request failed: ${c.req.method} ${c.req.path} (${res.status}) ${(await res.text().catch(() => '')).slice(0, 500)}`);
      return c.json(errorBody('INTERNAL', messages.generic), 500);
    }
    return res;
  });

  describeRoutes(app, [
    createRoute({
      method: 'get',
      path: '/api/health',
      tags: ['health'],
      summary: 'The server is up, and which database and vector store it runs on',
      responses: {
        200: jsonResponse(z.object({ ok: z.boolean(), database: z.string(), vector: z.boolean(), vectorStore: z.string() }), 'Up'),
        503: jsonResponse(z.object({ ok: z.boolean(), database: z.string(), error: z.string() }), 'The database does not answer'),
      },
    }),
  ]);
  // A load balancer sends people only where the database answers: a process whose database is
  // down or stuck says so (503) instead of "ok" while every other route fails.
  app.get('/api/health', async (c) => {
    if (!(await databaseAnswers(db, HEALTH_DATABASE_TIMEOUT_MS))) {
      return c.json({ ok: false, database: database.kind, error: 'The database does not answer' }, 503);
    }
    return c.json({ ok: true, database: database.kind, vector: database.hasVector, vectorStore: database.vectorStore });
  });

  const routes = app
    .route('/api/me', meRoutes())
    .route('/api/personalities', personalityRoutes(personalities))
    .route('/api/personalities', characterCardRoutes(createCharacterCardService({ db, storage: documents.storage, documents: documents.service, logger })))
    .route('/api/personalities', documentRoutes(documents, logger))
    .route('/api/personalities', sharingRoutes(createSharingService(db, clock)))
    .route('/api/admin', adminRoutes(createAdminService(db, clock)))
    .route('/api/admin/content-flags', contentFlagRoutes(moderation))
    .route('/api/personalities', reportRoutes(moderation))
    .route('/api/personalities', conversations.personalityRoutes)
    .route('/api/conversations', conversations.conversationRoutes)
    .route('/api/admin/system-optimizations', conversations.systemOptimizationRoutes)
    .route('/api/feedback', feedbackRoutes(db, clock, config.rateLimits.feedbackPerHour))
    .route('/api/voice', voiceRoutes(voice))
    .route('/api/admin/monitoring', voiceMonitoringRoutes(voice))
    .route(
      '/api/personalities',
      voicePersonalityRoutes(
        voice,
        {
        transcribe: rateLimit(db, clock, { endpoint: 'voice/transcribe', max: config.rateLimits.voicePerMinute, windowSeconds: 60 }),
        speech: rateLimit(db, clock, { endpoint: 'voice/speech', max: config.rateLimits.speechPerMinute, windowSeconds: 60 }),
        // A clone costs the owner's ElevenLabs plan: a few an hour is plenty.
        clone: rateLimit(db, clock, { endpoint: 'voice/clone', max: config.rateLimits.voiceClonePerHour, windowSeconds: 3600 }),
        warm: rateLimit(db, clock, { endpoint: 'voice/warm', max: config.rateLimits.voicePerMinute, windowSeconds: 60 }),
        },
        cloneDeps,
        conversations.warm,
      ),
    )
    .route(
      '/api/personalities',
      // Open mic's own loop: one request per turn, counting the limits of the three routes it stands for.
      voiceTurnRoutes({
        voice,
        startChat: conversations.startChat,
        limits: {
          // The speech-to-text and chat limits in one statement (issue 14: each waited its turn in the database's queue).
          turn: rateLimitsCounter(db, clock, [{ endpoint: 'voice/transcribe', max: config.rateLimits.voicePerMinute, windowSeconds: 60 }, chatRule]),
          speech: rateLimitCounter(db, clock, { endpoint: 'voice/speech', max: config.rateLimits.speechPerMinute, windowSeconds: 60 }),
        },
      }),
    )
    .route(
      '/api/personalities',
      voiceAgentRoutes(
        createVoiceAgentService({
          db,
          clock,
          logger,
          agents: voiceAgents,
          dailyCreditLimit: config.voice.dailyCreditLimit,
          dailyCharactersPerVisitor: config.voice.dailyCharactersPerVisitor,
          callCredits: createAgentCallCredits(deps.authSecret),
          // An agent call's lines are checked and logged as the text chat's are (issue 15).
          moderation,
          questions: conversations.questions,
        }),
        {
          session: rateLimit(db, clock, { endpoint: 'voice/agent', max: config.rateLimits.voicePerMinute, windowSeconds: 60 }),
          transcript: chatLimit,
        },
      ),
    );

  app.doc31('/api/openapi.json', { openapi: '3.1.0', info: { title: 'Kindred API', version: '1' } });

  app.all('/api/*', (c) => c.json(errorBody('NOT_FOUND', 'No such API route'), 404));

  // With shared object storage several processes serve one site: assets of another release are
  // found there during a rolling upgrade (web/shared-assets.ts).
  const sharedAssets =
    deps.webRoot && config.s3 ? createSharedAssets(documents.storage, path.join(deps.webRoot, 'assets'), logger) : undefined;
  if (deps.webRoot) mountWeb(app, deps.webRoot, sharedAssets);

  app.notFound((c) => c.json(errorBody('NOT_FOUND', messages.errors.notFound), 404));

  app.onError((err, c) => {
    if (err instanceof AppError) {
      if (err.status >= 500) logger.error(`request failed: ${c.req.method} ${c.req.path}`, err.cause ?? err);
      return c.json(errorBody(err.code, err.message, err.details), err.status as 400);
    }
    if (err instanceof HTTPException) {
      const status = err.status;
      const code = status === 413 ? 'PAYLOAD_TOO_LARGE' : status === 401 ? 'UNAUTHENTICATED' : 'BAD_REQUEST';
      const message = /json/i.test(err.message) ? messages.errors.badJson : err.message || messages.errors.invalidInput;
      return c.json(errorBody(code, message), status);
    }
    if (isUnstorableText(err)) return c.json(errorBody('BAD_REQUEST', messages.errors.unstorableText), 400);
    logger.error(`unhandled error: ${c.req.method} ${c.req.path}`, err);
    return c.json(errorBody('INTERNAL', messages.generic), 500);
  });

  return {
    app,
    routes,
    auth,
    documents,
    /** Background jobs outside the documents module (start.ts runs them beside the documents' ones). */
    voiceJobs: { jobHandlers: cloneCleanup.jobHandlers, bindWake: cloneCleanup.bindWake },
    preload: () => conversations.preload(),
    /** Copies the built assets to shared storage, for rolling upgrades (none without S3). */
    publishAssets: () => sharedAssets?.publish() ?? Promise.resolve(0),
    preloadSettled: () => conversations.settled(),
    /** Waits for replies still being saved (shutdown, before the database closes). */
    drain: (timeoutMs: number) => conversations.drain(timeoutMs),
    /** Stops replies still streaming (shutdown, after a grace period). */
    stopReplies: () => conversations.stopReplies(),
    /** Unsubscribes the app's caches from the invalidation bus. */
    close: () => {
      sessionCache.close();
      conversations.close();
    },
  };
}

export type AppType = ReturnType<typeof createApp>['routes'];

function trustedOrigins(publicUrl: string): string[] {
  const origins = new Set([new URL(publicUrl).origin]);
  // The same server reached as localhost or 127.0.0.1.
  const u = new URL(publicUrl);
  for (const host of ['localhost', '127.0.0.1']) origins.add(`${u.protocol}//${host}${u.port ? `:${u.port}` : ''}`);
  return [...origins];
}

/** The websocket origin of ElevenLabs agents' signed URLs (only when agents are configured). */
function voiceAgentOrigins(config: AppConfig): string[] {
  if (!config.elevenlabs.apiKey) return [];
  const base = new URL(config.elevenlabs.baseUrl ?? 'https://api.elevenlabs.io');
  return [`${base.protocol === 'https:' ? 'wss:' : 'ws:'}//${base.host}`];
}

/** The built SPA: files as they are, every other GET answered with index.html (client routing). */
function mountWeb(app: OpenAPIHono<AppEnv>, webRoot: string, shared: SharedAssets | undefined) {
  const indexPath = path.join(webRoot, 'index.html');
  const root = path.relative(process.cwd(), webRoot) || '.';
  // `precompressed`: the build wrote .br and .gz beside each file (scripts/vite-precompress.ts);
  // the one the browser accepts is sent with Content-Encoding and Vary: Accept-Encoding.
  app.use(
    '/assets/*',
    serveStatic({ root, precompressed: true, onFound: (_p, c) => c.header('Cache-Control', 'public, max-age=31536000, immutable') }),
  );
  // Not in this build: another release's (shared storage), else 404. Never the page: a script
  // answered with HTML is refused by the browser and leaves a blank page.
  app.get('/assets/:name', async (c) => (await shared?.find(c.req.param('name'))) ?? c.json(errorBody('NOT_FOUND', messages.errors.notFound), 404));
  app.all('/assets/*', (c) => c.json(errorBody('NOT_FOUND', messages.errors.notFound), 404));
  app.use('*', serveStatic({ root, precompressed: true }));
  app.get('*', (c) => {
    const html = fs.readFileSync(indexPath, 'utf8');
    return c.html(html);
  });
}

/** How long the health check waits for the database's answer. */
const HEALTH_DATABASE_TIMEOUT_MS = 3_000;

/** Whether the database answers a trivial statement within `timeoutMs`. */
async function databaseAnswers(db: Database, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  try {
    return await Promise.race([db.execute(sql`select 1`).then(() => true as const), late]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

