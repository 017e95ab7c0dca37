// The "Self-paced Chat" controls (spec sections 2 and 4): record a question, see its transcript
// in the conversation log, and hear the reply sentence by sentence as it streams in. The log and
// the conversation are the Text Chat's (ChatPanel owns them), so both tabs are one conversation.
// States: Ready -> Recording (counter; stops by itself at the limit) -> Processing -> Playing
// response -> Ready. A failure leaves the conversation as it was; the person can try again or type.
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { LoaderCircleIcon, MicIcon, SquareIcon, Trash2Icon, Volume2Icon } from 'lucide-react';
import { messages } from '../../../../shared/messages';
import { Alert, AlertDescription, AlertTitle } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ApiError } from '../../../lib/api-client';
import type { SendOptions } from '../../conversation/hooks/use-chat-session';
import { transcribe, useVoiceCapabilities } from '../api/voice-api';
import type { Recording } from '../audio/pcm-recorder';
import { useChatRecorder } from '../hooks/use-chat-recorder';
import { useSpeechPlayer } from '../hooks/use-speech-player';
import { AutoplayBlockedAlert, VolumeControls } from './speech-controls';
import { SentenceStream, sentencesOf } from '../../../../shared/sentence-stream';

export interface ReplayTarget {
  id: string;
  content: string;
}

interface Props {
  personality: { id: string; name: string };
  /** The conversation's send (the transcript is sent as the person's message). */
  send: (text: string, options?: SendOptions) => Promise<boolean>;
  /** A reply is streaming (from either tab). */
  busy: boolean;
  onClearChat: () => void;
  /** Gives the conversation log a way to replay a reply's voice. */
  registerReplay: (replay: ((message: ReplayTarget) => void) | null) => void;
}

const MB = 1024 * 1024;

export function SelfPacedChat({ personality, send, busy, onClearChat, registerReplay }: Props) {
  const capabilities = useVoiceCapabilities();
  const speech = useSpeechPlayer(personality.id);
  const { player } = speech;
  const [processing, setProcessing] = useState(false);
  const maxSeconds = capabilities.data?.limits.maxRecordingSeconds ?? 60;
  const maxBytes = capabilities.data?.limits.maxAudioBytes ?? 10 * MB;
  const abort = useRef<AbortController | null>(null);

  useEffect(() => {
    registerReplay((m) => player.replay(m.id, sentencesOf(m.content)));
    return () => registerReplay(null);
  }, [player, registerReplay]);
  useEffect(() => () => abort.current?.abort(), []);

  const onRecorded = async (recording: Recording) => {
    if (recording.wav.byteLength > maxBytes) {
      toast.error(messages.voice.audioTooLarge((recording.wav.byteLength / MB).toFixed(1)));
      return;
    }
    setProcessing(true);
    const controller = new AbortController();
    abort.current = controller;
    try {
      const transcript = await transcribe(personality.id, recording.wav, controller.signal);
      const sentences = new SentenceStream();
      await send(transcript.text, {
        pronunciationReport: transcript.pronunciation,
        onReply: ({ id, text, final }) => {
          for (const s of final ? sentences.finish(text) : sentences.push(text)) player.speak(id, s);
          if (final) player.endReply(id);
        },
      });
    } catch (err) {
      if (controller.signal.aborted) return;
      if (err instanceof ApiError && err.code === 'NO_SPEECH') toast.warning(err.message);
      else toast.error(err instanceof ApiError ? err.message : messages.voice.processRecordingFailed);
    } finally {
      if (abort.current === controller) abort.current = null;
      setProcessing(false);
    }
  };

  const recorder = useChatRecorder({ maxSeconds, onRecorded: (r) => void onRecorded(r) });

  const stt = capabilities.data?.stt;
  const sttMissing = stt !== undefined && !stt.available;
  // A turn is under way from Stop (the recording is finishing) until its reply has streamed.
  // While the microphone starts, the status stays Ready (nothing is recorded yet); the button waits.
  const turnBusy = processing || busy || recorder.finishing;
  const state = recorder.recording ? 'recording' : speech.active ? 'playing' : turnBusy ? 'processing' : 'ready';
  // The status region announces state changes only: the seconds counter is shown but hidden from
  // assistive technology, or a screen reader would read "Recording... 1s", "2s", ... every second.
  const status =
    state === 'recording' ? (
      <>
        Recording<span aria-hidden="true" data-testid="recording-counter">... {recorder.seconds}s / {maxSeconds}s</span>
      </>
    ) : state === 'playing' ? (
      'Playing response'
    ) : state === 'processing' ? (
      'Processing...'
    ) : (
      'Ready'
    );

  // No microphone service, or not known yet: the button is disabled. While the microphone starts
  // or a turn is under way it only waits: it stays focusable (aria-disabled) so keyboard focus is
  // not dropped to the page when it is pressed.
  const unavailable = sttMissing || capabilities.isPending;
  const waiting = !unavailable && (recorder.starting || (!recorder.recording && turnBusy));

  const toggleRecording = () => {
    if (waiting) return;
    if (recorder.recording) {
      void recorder.stop();
      return;
    }
    // Speaking over the reply: it stops, and the new question is heard.
    player.stop();
    void recorder.start();
  };

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4" data-testid="self-paced-chat" data-state={state}>
      {sttMissing && (
        <Alert>
          <AlertTitle>{messages.voice.sttNotConfigured}</AlertTitle>
          <AlertDescription>{stt.howToConfigure ?? messages.voice.sttUnavailable}</AlertDescription>
        </Alert>
      )}

      <div className="flex min-w-0 flex-wrap items-center justify-between gap-3 rounded-lg border bg-muted/30 px-3 py-2">
        <p role="status" aria-live="polite" aria-label="Recording status" className="flex min-w-0 items-center gap-2 text-sm font-medium">
          {state === 'recording' ? (
            <span aria-hidden className="size-2.5 animate-pulse rounded-full bg-destructive" />
          ) : state === 'processing' ? (
            <LoaderCircleIcon aria-hidden className="size-4 animate-spin" />
          ) : state === 'playing' ? (
            <Volume2Icon aria-hidden className="size-4" />
          ) : (
            <span aria-hidden className="size-2.5 rounded-full bg-emerald-500" />
          )}
          <span className="min-w-0">{status}</span>
        </p>
        {stt?.approximate && (
          <Badge variant="outline" title={messages.voice.sttApproximateHint} className="max-w-full shrink whitespace-normal [overflow-wrap:anywhere]">
            {messages.voice.sttApproximate}
          </Badge>
        )}
      </div>

      <AutoplayBlockedAlert speech={speech} />

      <div className="flex flex-wrap items-center gap-3">
        <Button
          onClick={toggleRecording}
          disabled={unavailable}
          aria-disabled={waiting || undefined}
          variant={recorder.recording ? 'destructive' : 'default'}
          className="min-w-40"
        >
          {recorder.recording ? <SquareIcon aria-hidden /> : <MicIcon aria-hidden />}
          {recorder.recording ? 'Stop Recording' : 'Start Recording'}
        </Button>

        <VolumeControls speech={speech} />

        <Button
          variant="ghost"
          className="ml-auto"
          onClick={() => {
            player.stop();
            onClearChat();
          }}
          disabled={recorder.recording || turnBusy}
        >
          <Trash2Icon aria-hidden />
          Clear Chat
        </Button>
      </div>
    </div>
  );
}
