// "Upload audio to transcribe": a speech, interview or recording (MP3, WAV or M4A, up to 20MB)
// becomes a document. The server stores it and transcribes it in the background; the document
// list shows the progress and a toast says when the transcript is ready.
import { useId, useRef, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { AudioLinesIcon, LoaderCircleIcon } from 'lucide-react';
import { messages } from '../../../../shared/messages';
import { errorMessage } from '../../../lib/api-client';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { useVoiceCapabilities } from '../../voice/api/voice-api';
import { useUploadAudio } from '../api/upload-audio';
import { transcriptionAnnounced, transcriptionToastId } from '../hooks/use-transcription-toasts';
import { AUDIO_ACCEPT, audioFileProblem } from '../utils/audio-validation';

export function AudioUploadForm({ personalityId }: { personalityId: string }) {
  const id = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [title, setTitle] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const upload = useUploadAudio();
  const capabilities = useVoiceCapabilities();
  const stt = capabilities.data?.stt;
  const unavailable = stt !== undefined && !stt.available;

  function choose(next: File | null) {
    setFile(next);
    setError(next ? audioFileProblem(next) : null);
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!file) {
      setError(messages.documents.audioNoFile);
      fileInput.current?.focus();
      return;
    }
    const problem = audioFileProblem(file);
    if (problem) {
      setError(problem);
      fileInput.current?.focus();
      return;
    }
    setError(null);
    setProgress(0);
    upload.mutate(
      { personalityId, file, title, onProgress: setProgress },
      {
        onSuccess: (document) => {
          // Its outcome replaces this toast; when the job already finished (announced before this
          // answer arrived), saying it is transcribing would be wrong.
          if (!transcriptionAnnounced(document.id)) {
            toast.success('Audio uploaded', { id: transcriptionToastId(document.id), description: `Transcribing ${document.fileName}…` });
          }
          setFile(null);
          setTitle('');
          if (fileInput.current) fileInput.current.value = '';
        },
        onError: (err) => {
          // Once, under the form (a toast is hidden from screen readers behind the dialog).
          setError(messages.documents.audioUploadFailed(errorMessage(err)));
        },
        onSettled: () => setProgress(null),
      },
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Upload audio to transcribe" className="grid min-w-0 content-start gap-2 rounded-lg border border-dashed p-3">
      <p className="flex items-center gap-1.5 text-sm font-medium">
        <AudioLinesIcon className="size-4 text-muted-foreground" aria-hidden />
        Upload audio to transcribe
      </p>
      <div className="grid gap-2 sm:grid-cols-2">
        <div className="grid gap-1">
          <Label htmlFor={`${id}-file`} className="text-xs">
            Audio file
          </Label>
          <Input
            ref={fileInput}
            id={`${id}-file`}
            type="file"
            accept={AUDIO_ACCEPT}
            disabled={unavailable || upload.isPending}
            aria-invalid={error ? true : undefined}
            // The error first (what to put right), then the hint (what is accepted).
            aria-describedby={error ? `${id}-error ${id}-hint` : `${id}-hint`}
            onChange={(e) => choose(e.target.files?.[0] ?? null)}
          />
        </div>
        <div className="grid gap-1">
          <Label htmlFor={`${id}-title`} className="text-xs">
            Title (optional)
          </Label>
          <Input
            id={`${id}-title`}
            value={title}
            maxLength={200}
            placeholder="e.g. Graduation speech, 1979"
            disabled={unavailable || upload.isPending}
            onChange={(e) => setTitle(e.target.value)}
          />
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" size="sm" variant="secondary" disabled={unavailable || upload.isPending}>
          {upload.isPending ? <LoaderCircleIcon className="animate-spin" aria-hidden /> : <AudioLinesIcon aria-hidden />}
          Upload Audio
        </Button>
        {progress !== null && (
          <span role="status" className="text-xs text-muted-foreground tabular-nums">
            Uploading {Math.round(progress * 100)}%
          </span>
        )}
      </div>
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-xs [overflow-wrap:anywhere] text-destructive">
          {error}
        </p>
      ) : null}
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        {unavailable ? messages.voice.sttUnavailable : messages.documents.audioHint}
        {stt?.available && stt.approximate ? ` ${messages.voice.sttApproximate}: WAV files only.` : ''}
      </p>
    </form>
  );
}
