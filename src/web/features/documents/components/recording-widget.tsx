// The Documents tab's recording widget: record the person (a memory, a story, how they speak),
// listen back, then upload it with a title to be transcribed like an uploaded speech, or discard
// it. idle -> recording (seconds) -> stopped (preview) -> uploading -> idle.
import { useEffect, useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import { CircleIcon, LoaderCircleIcon, MicIcon, PauseIcon, PlayIcon, SquareIcon, Trash2Icon, UploadIcon } from 'lucide-react';
import { messages } from '../../../../shared/messages';
import { isBlank } from '../../../../shared/text/visible';
import { errorMessage } from '../../../lib/api-client';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { useUploadAudio } from '../api/upload-audio';
import { RECORDING_MAX_SECONDS, recordingToWav, startDocumentRecorder, type DocumentRecorder, type DocumentRecording } from '../audio/document-recorder';

type Phase = 'idle' | 'starting' | 'recording' | 'stopped';

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`;

export function RecordingWidget({ personalityId }: { personalityId: string }) {
  const id = useId();
  const [phase, setPhase] = useState<Phase>('idle');
  const [seconds, setSeconds] = useState(0);
  const [recording, setRecording] = useState<DocumentRecording | null>(null);
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);
  const [playing, setPlaying] = useState(false);
  const [title, setTitle] = useState('');
  const [error, setError] = useState<string | null>(null);
  /** The field the error is about (only the title can be wrong; other errors are about the recording). */
  const [errorField, setErrorField] = useState<'title' | null>(null);
  const [converting, setConverting] = useState(false);
  const recorder = useRef<DocumentRecorder | null>(null);
  const preview = useRef<HTMLAudioElement>(null);
  const titleInput = useRef<HTMLInputElement>(null);
  const upload = useUploadAudio();
  const busy = converting || upload.isPending;

  // The microphone is released if the modal closes mid-recording; the preview URL is freed.
  useEffect(() => () => recorder.current?.cancel(), []);
  useEffect(() => () => (previewUrl ? URL.revokeObjectURL(previewUrl) : undefined), [previewUrl]);

  async function start() {
    if (phase !== 'idle' || busy) return;
    setError(null);
    setErrorField(null);
    setPhase('starting');
    try {
      recorder.current = await startDocumentRecorder();
    } catch {
      setPhase('idle');
      // Each refusal is said once, in this widget's alert (a toast is hidden from screen readers
      // behind the dialog, and both would put the words on the page twice).
      setError(messages.documents.recordingError);
      return;
    }
    setSeconds(0);
    setPhase('recording');
  }

  async function stop() {
    const active = recorder.current;
    if (!active) return;
    recorder.current = null;
    const result = await active.stop();
    setRecording(result);
    setPreviewUrl(URL.createObjectURL(result.blob));
    setPlaying(false);
    setPhase('stopped');
  }

  // The seconds counter, and the stop at the limit (the WAV must stay under 20 MB). Timed on the
  // monotonic clock: a wall-clock step (NTP, a manual change) would run it backwards (a negative
  // clock, the limit pushed back past 20 MB) or forwards (an instant stop at the limit).
  useEffect(() => {
    if (phase !== 'recording') return;
    const began = performance.now();
    const timer = setInterval(() => {
      const elapsed = (performance.now() - began) / 1000;
      setSeconds(elapsed);
      if (elapsed >= RECORDING_MAX_SECONDS) {
        toast.warning(messages.documents.recordingLimit(RECORDING_MAX_SECONDS / 60));
        void stop();
      }
    }, 250);
    return () => clearInterval(timer);
    // stop() reads refs only; the effect restarts with each recording.
  }, [phase]);

  function discard() {
    preview.current?.pause();
    setRecording(null);
    setPreviewUrl(null);
    setPlaying(false);
    setTitle('');
    setError(null);
    setErrorField(null);
    setPhase('idle');
  }

  function togglePreview() {
    const audio = preview.current;
    if (!audio) return;
    if (audio.paused) void audio.play().then(() => setPlaying(true), () => setPlaying(false));
    else audio.pause();
  }

  async function send() {
    if (busy) return;
    setErrorField(null);
    if (!recording) {
      setError(messages.documents.noRecordingHint);
      toast.error(messages.documents.noRecording);
      return;
    }
    const name = title.trim();
    // "Title Required": a title of zero-width or direction characters is no title.
    if (isBlank(name)) {
      setError(messages.documents.titleRequiredHint);
      setErrorField('title');
      titleInput.current?.focus();
      toast.error(messages.documents.titleRequired);
      return;
    }
    setError(null);
    setConverting(true);
    let wav: Uint8Array<ArrayBuffer>;
    try {
      wav = await recordingToWav(recording.blob);
    } catch {
      setConverting(false);
      setError(messages.documents.recordingUnreadable);
      return;
    }
    setConverting(false);
    const file = new File([wav], 'recording.wav', { type: 'audio/wav' });
    upload.mutate(
      { personalityId, file, title: name },
      {
        onSuccess: (document) => {
          toast.success('Recording uploaded', { description: `Transcribing ${document.fileName}…` });
          discard();
        },
        onError: (err) => {
          setError(messages.documents.audioUploadFailed(errorMessage(err)));
        },
      },
    );
  }

  const errorId = `${id}-error`;
  const titleInvalid = errorField === 'title' && error !== null;
  // Start Recording waits while the microphone starts, while a recording awaits upload or discard,
  // and while it uploads. It stays focusable meanwhile (aria-disabled, presses ignored), so focus
  // is not dropped to the page when it is pressed; Stop Recording takes its place in the same button.
  const startWaits = phase === 'starting' || phase === 'stopped' || busy;
  return (
    <section aria-label="Record audio" className="grid min-w-0 content-start gap-2 rounded-lg border border-dashed p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="flex items-center gap-1.5 text-sm font-medium">
          <MicIcon className="size-4 text-muted-foreground" aria-hidden />
          Record audio
        </p>
        {/* Announces state changes only: the running clock is hidden from assistive technology. */}
        <p role="status" aria-label="Recording state" className="text-xs text-muted-foreground tabular-nums">
          {phase === 'recording' ? (
            <span className="inline-flex items-center gap-1 text-destructive">
              <CircleIcon className="size-2.5 animate-pulse fill-current" aria-hidden />
              <span>
                Recording<span aria-hidden="true" data-testid="recording-clock"> {clock(seconds)}</span>
              </span>
            </span>
          ) : phase === 'stopped' && recording ? (
            `Recorded ${clock(recording.seconds)}`
          ) : phase === 'starting' ? (
            'Starting…'
          ) : (
            'Not recording'
          )}
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {phase === 'recording' ? (
          <Button type="button" size="sm" variant="destructive" onClick={() => void stop()}>
            <SquareIcon aria-hidden />
            Stop Recording
          </Button>
        ) : (
          <Button type="button" size="sm" variant="secondary" aria-disabled={startWaits || undefined} onClick={() => void start()}>
            <MicIcon aria-hidden />
            Start Recording
          </Button>
        )}
        {phase === 'stopped' && previewUrl && (
          <>
            <audio ref={preview} src={previewUrl} preload="auto" onPause={() => setPlaying(false)} onEnded={() => setPlaying(false)} className="hidden" />
            <Button type="button" size="sm" variant="outline" onClick={togglePreview} aria-label={playing ? 'Pause recording' : 'Play recording'}>
              {playing ? <PauseIcon aria-hidden /> : <PlayIcon aria-hidden />}
              {playing ? 'Pause' : 'Play'}
            </Button>
            <Button type="button" size="sm" variant="ghost" onClick={discard} disabled={busy}>
              <Trash2Icon aria-hidden />
              Discard
            </Button>
          </>
        )}
      </div>
      <div className="flex flex-wrap items-end gap-2">
        <div className="grid min-w-40 flex-1 gap-1">
          <Label htmlFor={`${id}-title`} className="text-xs">
            Recording title
          </Label>
          <Input
            ref={titleInput}
            id={`${id}-title`}
            value={title}
            maxLength={200}
            placeholder="e.g. How we met"
            disabled={busy}
            aria-invalid={titleInvalid || undefined}
            aria-describedby={titleInvalid ? errorId : undefined}
            onChange={(e) => setTitle(e.target.value)}
          />
        </div>
        <Button type="button" size="sm" disabled={phase === 'recording'} aria-disabled={busy || undefined} onClick={() => void send()}>
          {busy ? <LoaderCircleIcon className="animate-spin" aria-hidden /> : <UploadIcon aria-hidden />}
          Upload Recording
        </Button>
      </div>
      {error && (
        <p id={errorId} role="alert" className="text-xs [overflow-wrap:anywhere] text-destructive">
          {error}
        </p>
      )}
      <p className="text-xs text-muted-foreground">Up to {RECORDING_MAX_SECONDS / 60} minutes. The recording is transcribed and becomes a document.</p>
    </section>
  );
}
