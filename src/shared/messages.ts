// The spec's user-facing texts (section 8), in one place so the server and the web say the same
// words. Functions take the parts that vary.
/** 1.5 MB, 12 MB, 1024 MB: one decimal below 10. */
function megabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return `${mb < 10 ? Math.round(mb * 10) / 10 : Math.round(mb)} MB`;
}

export const messages = {
  generic: 'An unexpected error occurred',
  auth: {
    signUpSuccess: 'Check your email for a confirmation link!',
    passwordHint: 'Password must be at least 6 characters long',
    passwordTooShort: 'Password must be at least 6 characters long',
    alreadyRegistered: 'User already exists. Use another email.',
    required: 'Authentication required',
    signInRequired: 'You must be signed in to do that',
    passwordChanged: 'Password changed',
    /** POST /api/auth/update-user with a name that shows nothing (empty, spaces, invisible characters). */
    displayNameBlank: 'Display name cannot be blank',
    displayNameNotText: 'Display name must be text',
    otherSessionsSignedOut: 'You have been signed out on your other devices.',
    /** Account deletion (Change Password dialog, POST /api/auth/delete-user). */
    deleteAccountWarning:
      'This permanently deletes your account, your personalities with their documents and voice clones, and your conversations.',
    deletionPasswordRequired: 'Enter your current password to delete your account',
    accountDeleted: 'Your account has been deleted.',
    /** Sign-in with the right password to an account whose address is not confirmed yet. */
    emailNotVerifiedLinkSent: (email: string) =>
      `Email not verified. We sent a new confirmation link to ${email}: open it to confirm your account, then sign in.`,
    emailNotVerifiedLinkRecent: (email: string) =>
      `Email not verified. A confirmation link was sent to ${email} recently: please look for it in your inbox (and spam folder), or try again in an hour.`,
    emailNotVerifiedSendFailed: 'Email not verified. We could not send a new confirmation link just now. Please try again later.',
    /** After a confirmation link, by the error the server redirected to / with (?error=). */
    verificationLinkExpired: 'This confirmation link has expired. Sign in with your email and password and we will send you a new one.',
    verificationLinkInvalid: 'This confirmation link is not valid. Sign in with your email and password and we will send you a new one.',
    verificationLinkUnknownUser: 'This confirmation link belongs to an account that no longer exists. Sign up again to create a new one.',
    verificationLinkOtherUser: 'This confirmation link is for another account. Sign out, then open the link again.',
    /** "1 second", "45 seconds", "1 minute", "15 minutes": whole minutes (rounded up) from 60 s. */
    signInBackoff: (seconds: number) => {
      const [count, unit] = seconds < 60 ? [seconds, 'second'] : [Math.ceil(seconds / 60), 'minute'];
      return `Too many failed sign-in attempts. Please wait ${count} ${unit}${count === 1 ? '' : 's'} before trying again.`;
    },
  },
  personality: {
    nameRequired: 'Please enter a name for the personality',
    created: 'Personality created successfully',
    createFailed: 'Failed to create personality',
    updated: 'Personality updated successfully',
    updateFailed: 'Failed to update personality',
    /** A save refused because the personality changed after the form was opened (another tab). */
    changedElsewhere: 'This personality was changed elsewhere (in another tab or window) while you were editing. The form now shows those changes, with your edits kept: check it and save again.',
    deleted: 'Personality deleted successfully',
    deleteFailed: 'Failed to delete personality',
    deleteConfirm: 'Are you sure you want to delete this personality? This will also delete all associated documents.',
    notFound: 'Personality not found',
    notOwner: 'Only the owner can change this personality',
    emptySignedIn: 'No personalities yet',
    emptySignedOut: 'No public personalities available',
    createdByOther: 'Created by another user',
    loadFailed: 'Failed to load personalities',
  },
  cards: {
    notACard: (reason: string) => `This file is not a character card: ${reason}`,
    noFile: 'Choose a .json or .png character card file',
    imported: (name: string) => `Imported "${name}"`,
    importFailed: 'Failed to import the character card',
    noImage: 'This personality has no image to export as a PNG card',
    exportNote: 'Documents other than the imported lorebook are not exported.',
    /** Export is open to the owner only; others who may see the personality get this (403). */
    exportOwnerOnly: 'Only the owner can export this personality',
    /** A card whose text cannot fit in a personality even with its description carried over. */
    tooLong: (reason: string) => `This character card is too long to import: ${reason}`,
    /** The behaviour-instructions label of a long description's remainder (see docs/character-cards.md). */
    descriptionContinuedLabel: 'Description (continued)',
    descriptionContinued: (max: number) =>
      `The card's description is longer than ${max} characters: its beginning becomes the description, and the rest opens the behaviour instructions under "Description (continued)", so the character keeps all of it.`,
  },
  feedback: {
    empty: 'Please provide some feedback',
    failed: 'Failed to submit feedback. Please try again.',
    successTitle: 'Thank you!',
    successBody: 'Your feedback has been submitted successfully',
  },
  sharing: {
    requestSubmittedTitle: 'Request submitted',
    requestSubmittedBody: 'Your request to make this personality public has been submitted for admin review.',
    requestFailed: 'Failed to submit request',
    requestAlreadyPending: 'A request for this personality is already pending',
    updatedTitle: 'Sharing updated',
    updatedBody: (type: string) => `Personality is now ${type}`,
    updateFailed: 'Failed to update sharing settings',
    userAddedTitle: 'User added',
    userAddedBody: (email: string) => `Shared with ${email}`,
    alreadyAdded: 'This user is already added',
    invalidEmail: 'Invalid email or user not found',
    shareFailed: 'Failed to share personality',
    userRemoved: 'User removed',
    removeFailed: 'Failed to remove user',
    userNotFound: 'User with this email not found',
    adminApprovalRequired: 'Admin approval required',
    adminApprovalHint: 'Use "Request Public" to ask an admin to make this personality public.',
    unknownEmail: 'Unknown',
    shareNotFound: 'Share not found',
    /** A recipient removing a personality shared with them from their own library. */
    leaveTitle: (name: string) => `Remove ${name} from your library?`,
    leaveConfirm: 'It was shared with you by its creator. You will no longer see it or chat with it unless they share it with you again.',
    left: 'Removed from your library',
    leaveFailed: 'Failed to remove it from your library',
    cannotShareWithSelf: 'You cannot share a personality with yourself',
    emailRequired: 'Please enter an email address',
    alreadyPublic: 'This personality is already public',
    requestPendingBadge: 'Public Request Pending',
    requestRejected: 'Your last request to make this personality public was rejected. You can request again.',
  },
  approval: {
    personalityGone: 'Cannot approve request: The personality no longer exists. It may have been deleted.',
    approvedTitle: 'Request approved',
    approvedBody: 'The personality has been made public.',
    approveFailed: 'Failed to approve request.',
    rejectedTitle: 'Request rejected',
    rejectedBody: 'The request has been rejected.',
    rejectFailed: 'Failed to reject request.',
    requestNotFound: 'Public request not found',
    alreadyReviewed: 'This request has already been reviewed',
    deletedPersonality: '[Deleted Personality]',
    unknownUser: '[Unknown User]',
  },
  admin: {
    loadPublicFailed: 'Failed to load public personalities',
    reverted: (name: string) => `"${name}" has been reverted to private`,
    revertFailed: 'Failed to revert personality to private',
    revertConfirm: (name: string) =>
      `Are you sure you want to make "${name}" private? This will remove it from public access and only the creator will be able to access it.`,
    loadPersonalitiesFailed: 'Failed to load personalities',
    orderSaved: 'Personality order updated successfully',
    orderFailed: 'Failed to save personality order',
    adminOnly: 'Only administrators can do that',
    /** An open dashboard whose admin role was removed meanwhile (its next call was refused). */
    roleRemoved: 'Your administrator role was removed, so the dashboard was closed.',
    notPublic: 'This personality is not public',
    unknownCreator: 'Unknown',
    orderNotPublic: 'Some personalities in the order are unknown or not public; nothing was saved',
    orderDuplicateIds: 'Each personality may appear only once in the order',
    noPendingRequests: 'No pending requests',
    noPublicPersonalities: 'No public personalities found',
    flagUpdated: 'Flag updated successfully',
    flagUpdateFailed: (message: string) => `Failed to update flag: ${message}`,
    noPendingFlags: 'No pending flags',
    loadFlagsFailed: 'Failed to load content flags',
    flagNotPending: 'This flag has already been reviewed',
    /** Beside "[Deleted Personality]" on a flag: the name it was flagged under. */
    flaggedPersonalityDeleted: (name: string) => `Flagged as "${name}"; the personality has since been deleted.`,
  },
  moderation: {
    /** A person's message held back before the model (severe content). */
    messageWithheld:
      "I can't respond to that message. It may break our content rules, so it was not sent. You can rephrase it, or ask me something else.",
    /** A model reply held back (severe content). */
    replyWithheld: 'That reply was withheld because it may break our content rules. Please ask something else.',
    reportTitle: 'Report this reply',
    reportReasonLabel: 'Reason (optional)',
    reportSent: 'Thank you. The reply has been reported for review.',
    reportFailed: 'Failed to report the reply. Please try again.',
    documentHeld: 'This document is held for review by an administrator and stays private until it is cleared.',
  },
  chat: {
    aiFailed: 'Failed to get AI response. Please try again.',
    previewFailed: 'Failed to load prompt preview',
    messageRequired: 'Please enter a message',
    messageTooLong: (max: number) => `Messages can be at most ${max} characters`,
    conversationNotFound: 'Conversation not found',
    previewExpired: 'This prompt preview has expired. Please preview again.',
    titleRequired: 'Please enter a title',
    offlineModeLabel: 'Offline mode: replies are drawn from this personality\'s documents without a language model',
    /** Prefixed to a reply while some of the personality's documents are not ready yet. */
    documentsProcessing: 'Some of my documents are still being processed, so I cannot draw on them yet.',
    /** The reply arrived but this exchange could not be saved to the conversation (a database failure). */
    notSaved: 'This message and its reply could not be saved to the conversation. Please try again.',
    /** The save failed because the personality (and with it the conversation) was deleted meanwhile. */
    personalityGone: 'This personality is no longer available, so this message and its reply were not saved.',
    /** In-character replies added when the model call fails, so the conversation never dead-ends. */
    fallbackReplies: [
      'Forgive me, I lost my train of thought for a moment. Could you ask me that again?',
      'Hmm, the words escape me just now. Would you mind repeating your question?',
      'I seem to have drifted off for a second there. Please ask me once more.',
    ],
  },
  questions: {
    dateRequired: 'Please select a date',
    deleteFailed: 'Failed to delete questions. You may not have permission.',
    registeredUser: 'Registered User',
  },
  errors: {
    notFound: 'Not found',
    badJson: 'The request body is not valid JSON',
    invalidInput: 'The request is not valid',
    tooLarge: 'The request is too large',
    unstorableText: 'The text contains characters that cannot be saved (such as a NUL character)',
    rateLimited: 'Too many requests. Please wait a few minutes before trying again.',
    crossOrigin: 'This request came from another site and was refused',
    tooManyStreams: 'Too many open connections. Close some tabs and try again.',
    tooManyUploadsAtOnce: 'Too many uploads at once from your connection. Wait for one to finish, then try again.',
  },
  documents: {
    modalTitle: (name: string) => `Documents for ${name}`,
    sourceTitle: (name: string) => `Source document for ${name}`,
    tabDocuments: 'Documents',
    tabQuestions: 'User Questions',
    accessDeniedTitle: 'Access Denied',
    accessDenied: "You don't have permission to manage this personality's documents.",
    backToDocuments: 'Back to Documents',
    /** Beside the Private switch of a document moderation holds private until an admin clears it. */
    heldForReview: 'Held for review',
    referenced: 'Referenced',
    notProcessed: "This document hasn't been processed yet. Ask the owner to process it to view chunks.",
    chunkUnavailable: 'Unable to load chunk: This referenced chunk is not available.',
    statusNeedsProcessing: 'Needs Processing',
    statusNeedsChunking: 'Needs Chunking',
    statusReady: 'Ready',
    statusProcessing: (percent: number) => `Processing ${percent}%`,
    statusFailed: 'Failed',
    deleteConfirm: (file: string) => `Are you sure you want to delete "${file}"? Its chunks will be removed too.`,
    // Upload validation: the spec's sentence (section 5; issue 4 keeps "the spec's two messages"),
    // then the types Kindred converts to text itself, which the spec's product did not.
    unsupported: (file: string) =>
      `Only .txt files are supported. Please convert ${file} to plain text format. Markdown (.md), PDF, Word (.docx) and web page (.html) files are converted to text for you.`,
    tooLarge: (file: string) => `File ${file} is too large. Maximum size is 10MB.`,
    /** Past STORAGE_QUOTA_MB: what the person's documents take, so they know what to delete. */
    serverDiskFull: (file: string) =>
      `The server is running out of disk space, so ${file} was not stored. Please tell the site's administrator.`,
    storageFull: (file: string, usedBytes: number, quotaBytes: number) =>
      `There is no room for ${file}: your documents already take ${megabytes(usedBytes)} of your ${megabytes(quotaBytes)}. Delete documents you no longer need to make room.`,
    contentMismatch: (file: string, kind: string) =>
      `File ${file} is not a valid ${kind} file: its content does not match its type, or it is corrupt.`,
    emptyFile: (file: string) => `File ${file} is empty.`,
    tooManyFiles: (max: number) => `You can upload at most ${max} files at once.`,
    noFiles: 'Please choose at least one file to upload.',
    uploadTooLarge: 'The upload is too large. Each file can be at most 10MB.',
    notMultipart: 'Files must be sent as multipart/form-data.',
    uploadMalformed: 'The upload could not be read. Please try again.',
    // Spec section 8 toasts.
    uploadError: 'Upload Error',
    uploadFailed: 'Upload Failed',
    noneUploaded: 'Upload Failed: No files were uploaded successfully',
    processingFailed: 'Processing Failed',
    loadFailed: 'Failed to load documents',
    deleteFailed: 'Failed to delete document',
    privacyFailed: 'Privacy Update Failed',
    rechunkFailed: 'Rechunking Failed',
    notFound: 'Document not found',
    noContentToChunk: 'This document has no text yet. Process it first.',
    alreadyProcessing: 'This document is already being processed.',
    // URL import.
    urlInvalid: 'Please enter a valid http or https address.',
    urlBlocked: 'This address cannot be imported: it points to a private or local network.',
    urlFetchFailed: (reason: string) => `Could not fetch the page: ${reason}`,
    urlTimeout: 'The page took too long to respond.',
    urlTooLarge: 'The page is too large to import. Maximum size is 10MB.',
    urlTooManyRedirects: 'The page redirected too many times.',
    urlUnsupportedType: 'This address does not point to a web page or a supported document.',
    urlNoText: 'No readable text was found at this address.',
    // Extraction (shown as the document's error; the file name is in the list beside it).
    extractFailed: (file: string) => `Could not extract text from ${file}: the file is corrupt or unreadable.`,
    extractNoText: (file: string) => `No text could be extracted from ${file}.`,
    extractTooManyPages: (file: string, max: number) => `${file} has too many pages. Maximum is ${max} pages.`,
    extractTooBigUnpacked: (file: string) => `${file} is too large when unpacked and was not processed.`,
    extractTimeout: (file: string) => `Extracting text from ${file} took too long and was stopped.`,
    extractOutOfMemory: (file: string) => `${file} needs too much memory to process and was stopped.`,
    extractTooMuchText: (file: string) => `${file} contains too much text. Maximum is 10MB of text.`,
    storedFileMissing: (file: string) => `The stored file for ${file} is missing. Please upload it again.`,
    embeddingFailed: (reason: string) => `Embedding failed: ${reason}`,
    interrupted: 'Processing was interrupted too many times.',
    // Spec sections 5 and 8: audio uploaded to be transcribed.
    audioType: 'Please upload an audio file (MP3, WAV, or M4A)',
    audioTooLarge: 'Audio file must be smaller than 20MB for transcription',
    audioHint: 'MP3, WAV or M4A, up to 20MB. The transcript becomes a document.',
    audioUploadFailed: (reason: string) => `Failed to upload audio: ${reason}`,
    audioSignIn: 'You must be signed in to upload audio',
    audioEmpty: 'The audio file is empty.',
    audioTruncated: 'The audio file is incomplete or damaged.',
    audioWavFormat: 'WAV files must be 16-bit PCM (mono or stereo, 8 to 48 kHz). Convert it, or upload an MP3.',
    audioUnreadable: 'The audio could not be read.',
    audioOfflineWavOnly:
      'Offline speech recognition reads WAV files only. Upload a WAV, or configure a speech-to-text service (OPENAI_API_KEY or STT_BASE_URL) for MP3 and M4A.',
    audioNoSpeech: (file: string) => `No speech was recognised in ${file}.`,
    audioTitleTooLong: 'The title is too long (at most 200 characters).',
    audioNoFile: 'Choose an audio file to upload.',
    transcribed: (file: string) => `Transcription complete: ${file}`,
    // Spec section 8: the document recording widget.
    noRecording: 'No Recording',
    noRecordingHint: 'Record something first, then upload it.',
    titleRequired: 'Title Required',
    titleRequiredHint: 'Give the recording a title before uploading it.',
    recordingError: 'Recording Error: Could not access microphone. Please check permissions.',
    recordingLimit: (minutes: number) => `Recording stopped: the limit is ${minutes} minutes.`,
    recordingUnreadable: 'The recording could not be read. Please record again.',
  },
  voice: {
    // Spec section 8, Speech (server answers; the web side adds the microphone texts here too).
    rateLimited: 'Voice chat rate limit reached. Please wait a few minutes before trying again.',
    quotaExceeded: 'Voice chat quota exceeded. Please check your OpenAI usage limits.',
    sttError: (message: string) => `Speech-to-text error: ${message}`,
    sttEmpty: 'Speech-to-text returned nothing. The service may be rate limited or having problems; please try again.',
    noSpeech: 'No speech detected - try speaking louder',
    audioTooLarge: (mb: string) => `Audio file too large (${mb} MB). Maximum size is 10MB.`,
    notWav: 'The recording is not a WAV file (16-bit PCM). Please record again.',
    emptyAudio: 'The recording is empty. Please record again.',
    truncatedAudio: 'The recording is incomplete (the WAV file is cut short). Please record again.',
    badAudioFormat: 'The recording must be 16-bit PCM WAV, mono or stereo, 8 to 48 kHz.',
    sttUnavailable:
      'Speech recognition is not configured. Set OPENAI_API_KEY (or STT_BASE_URL for a self-hosted whisper server), or install pocketsphinx and pocketsphinx-en-us for approximate offline recognition. Text chat still works.',
    sttApproximate: 'Approximate offline recognition (pocketsphinx)',
    nothingToSpeak: 'There is no text to speak.',
    ttsFallback: 'The voice service failed; using the browser voice instead.',
    ttsError: 'The ElevenLabs voice failed to answer. Please try again.',
    elevenLabsCreditsExhausted: "The ElevenLabs voice has run out of credits. Ask the site's administrator to add credits.",
    ttsBrowser: 'No server voice is available; using the browser voice.',
    creditsExhausted: 'Daily limit reached. New requests will be blocked until tomorrow.',
    usageWarning: 'Approaching daily limit. Monitor usage carefully.',
    loadRateLimitsFailed: 'Failed to load rate limit data',
    loadUsageFailed: 'Failed to load usage data',
    noRateLimitActivity: 'No recent rate limit activity',
    startRecordingFailed: 'Failed to start recording',
    processRecordingFailed: 'Failed to process recorded audio',
    playbackFailed: 'Failed to load or play audio response',
    tapToPlay: 'Tap the Play button to hear the response',
    recordingLimit: (seconds: number) => `Recording stopped: the limit is ${seconds} seconds.`,
    sttApproximateHint: 'Offline recognition is approximate: check the words before they are sent.',
    // Spec section 8, Microphone.
    micUnsupported: 'Your browser does not support audio recording. Please use a recent version of Chrome, Edge, Firefox or Safari.',
    micDenied: 'Microphone access was denied. Allow microphone access in your browser settings (the icon beside the address bar), then try again.',
    micDeniedBrave:
      'Microphone access was denied. In Brave, click the Brave Shields or site-settings icon beside the address bar, allow the microphone for this site, then reload the page.',
    micDeniedMobile:
      'Microphone access was denied. On your phone, open the browser settings (Site settings > Microphone) and allow this site, then reload the page.',
    micNotFound: 'No microphone was found. Connect a microphone and try again.',
    micInUse: 'Your microphone is in use by another application. Close it and try again.',
    micConstraints: 'Your microphone does not support the required audio settings. Try another microphone.',
    sttNotConfigured: 'Speech recognition is not configured',
    replay: 'Replay response',
    // Spec sections 5 and 8: the voice-sample upload for cloning.
    cloneTooLarge: 'Audio file must be smaller than 11MB for ElevenLabs voice cloning',
    cloneHint: 'MP3, WAV or M4A, up to 11MB. 1-10 minutes of clear speech from one person works best.',
    cloneConsentRequired: 'Please confirm that you have the right to use this voice.',
    cloneConsentText: "I confirm that I have the right to use this person's voice, and their consent where the law requires it.",
    cloneNotConfigured: 'Voice cloning needs an ElevenLabs API key. Set ELEVENLABS_API_KEY on the server, then try again.',
    cloneNoFile: 'Choose a voice sample to upload.',
    cloneNameTooLong: 'The voice name is too long (at most 100 characters).',
    cloneFailed: 'Voice Training Failed',
    cloneFailedReason: (reason: string) => `Voice Training Failed: ${reason}`,
    cloneSubscription: 'ElevenLabs Subscription Required',
    cloneSubscriptionHint: 'Instant voice cloning is not available on this ElevenLabs plan. The default voices remain available.',
    cloned: (name: string) => `Voice cloned: ${name}`,
    cloneLimitReached: (max: number) =>
      `You can keep up to ${max} cloned ${max === 1 ? 'voice' : 'voices'}. Remove a cloned voice from another personality first (give it another voice, or delete it).`,
    // Pronunciation coaching (phonetic mode).
    pronunciationUnavailable:
      'Pronunciation assessment is not available on this server (configure AZURE_SPEECH_KEY and AZURE_SPEECH_REGION, or install pocketsphinx for an approximate one). The conversation still works.',
    pronunciationServiceDown: 'Pronunciation assessment failed: the pronunciation service is not available right now. The conversation still works.',
    pronunciationApproximate: 'Approximate assessment (offline recognizer)',
  },
  // Open mic (spec sections 2, 4, 5 and 8: Voice session).
  openMic: {
    agentIdRequired: 'Agent ID is required for ElevenLabs voice conversations. Please configure an agent ID for this personality.',
    agentInvalid: 'The voice connection closed unexpectedly (code 1006). The agent ID may be invalid or expired. Please check the agent ID for this personality.',
    noSignedUrl: 'No signed URL returned from server',
    socketFailed: (reason: string) => `The voice connection failed: ${reason}`,
    networkError: 'Network error: could not reach the voice service. Check your internet connection and try again.',
    agentsNotConfigured: 'ElevenLabs voice agents need an API key. Set ELEVENLABS_API_KEY on the server, then try again.',
    agentFailed: (reason: string) => `The voice agent could not be started: ${reason}`,
    dropped: 'The voice connection dropped. Everything said so far is saved.',
    sttMissing: 'Open mic needs speech recognition. Set OPENAI_API_KEY (or STT_BASE_URL), or install pocketsphinx, or configure an ElevenLabs agent ID for this personality.',
    vadFailed: 'Voice detection could not start in this browser.',
    vadStopped: 'Voice detection stopped working, so the call was ended. Everything said so far is saved.',
    lineNotSaved: 'Part of this call could not be saved to the conversation.',
  },
  fallback: {
    title: 'Something went wrong',
    body: 'We encountered an unexpected error. Please try refreshing the page or contact support if the problem persists.',
  },
} as const;
