// The spec's constants (section 9) and Kindred's own input bounds.
export const limits = {
  passwordMin: 6,
  passwordMax: 128,
  displayNameMax: 100,
  emailMax: 254,
  personalityNameMax: 200,
  personalityDescriptionMax: 5000,
  behaviorInstructionsMax: 20000,
  /** A personality's greeting (the first message of every chat; a card's first_mes). */
  personalityGreetingMax: 10000,
  /** A character card file (.json or .png). */
  characterCardMaxBytes: 10 * 1024 * 1024,
  agentIdMax: 200,
  feedbackMax: 5000,
  requestMessageMax: 2000,
  /** Largest JSON body the API reads; bigger ones get 413 before they are read whole. */
  jsonBodyMaxBytes: 256 * 1024,
  textUploadMaxBytes: 10 * 1024 * 1024,
  /** Audio uploaded to be transcribed into a document (spec section 5: 20MB). */
  audioTranscriptionMaxBytes: 20 * 1024 * 1024,
  /** Documents (issue 4): files per upload request, name and URL lengths, page sizes, polling. */
  documentUploadMaxFiles: 20,
  documentFileNameMax: 255,
  documentUrlMax: 2048,
  documentChunksPageMax: 500,
  documentSourceWindow: 100,
  documentPollMs: 2000,
  onboardingSteps: 4,
  /** Chat (issue 5): one message, the history a request may carry, what is sent to the model. */
  chatMessageMax: 4000,
  chatHistoryRequestMaxItems: 100,
  chatHistoryMaxMessages: 20,
  chatHistoryMaxChars: 12000,
  chatPassages: 5,
  conversationTitleMax: 120,
  questionsListLimit: 50,
  /** Spec section 9: context cache. */
  contextCacheTtlMs: 10 * 60 * 1000,
  contextCacheMaxEntries: 10,
  contextCachePreload: 5,
  chatPreviewTtlMs: 10 * 60 * 1000,
  /** Open mic: the withdrawn turns one turn may name in `replaces` (a chain of pauses mid-sentence). */
  voiceTurnReplacesMax: 16,
  /** Spec section 9: the monitoring list's warning icon from this many requests in one window. */
  rateLimitWarningCount: 80,
} as const;

export const FEEDBACK_CATEGORIES = [
  { value: 'general', label: 'General Feedback' },
  { value: 'bug', label: 'Bug Report' },
  { value: 'feature', label: 'Feature Request' },
  { value: 'personality', label: 'Personality Quality' },
  { value: 'voice', label: 'Voice Experience' },
  { value: 'ui', label: 'User Interface' },
] as const;
export type FeedbackCategory = (typeof FEEDBACK_CATEGORIES)[number]['value'];

export const RATING_LABELS = ['Poor', 'Fair', 'Good', 'Very Good', 'Excellent'] as const;

export const OPENAI_VOICES = [
  { value: 'alloy', label: 'Alloy (neutral)' },
  { value: 'echo', label: 'Echo (male)' },
  { value: 'fable', label: 'Fable (British male)' },
  { value: 'onyx', label: 'Onyx (deep male)' },
  { value: 'nova', label: 'Nova (female)' },
  { value: 'shimmer', label: 'Shimmer (female)' },
] as const;

/** ElevenLabs presets (female and male) and the OpenAI voices they map to. */
export const ELEVENLABS_PRESETS = [
  { value: 'female', label: 'Female', voiceId: 'EXAVITQu4vr4xnSDxMaL', openaiVoice: 'nova' },
  { value: 'male', label: 'Male', voiceId: 'TxGEqnHWrfWFTfGW9XjX', openaiVoice: 'onyx' },
] as const;

export const VOICE_PROVIDERS = ['default', 'openai', 'elevenlabs'] as const;
export type VoiceProvider = (typeof VOICE_PROVIDERS)[number];

export const SHARING_TYPES = ['private', 'shared', 'public'] as const;
export type SharingType = (typeof SHARING_TYPES)[number];

/**
 * Document types Kindred accepts (the spec: .txt only), by extension; each is converted to plain
 * text. The one list both sides use: the server's sniffer maps each to its kind, the browser's
 * pre-check and the browse button's `accept` are built from it.
 */
export const DOCUMENT_EXTENSIONS = ['.txt', '.text', '.md', '.markdown', '.pdf', '.docx', '.html', '.htm'] as const;
export type DocumentExtension = (typeof DOCUMENT_EXTENSIONS)[number];
/** The `accept` attribute for the browse button. */
export const DOCUMENT_ACCEPT = [
  ...DOCUMENT_EXTENSIONS,
  'text/plain',
  'text/markdown',
  'application/pdf',
  'text/html',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
].join(',');
