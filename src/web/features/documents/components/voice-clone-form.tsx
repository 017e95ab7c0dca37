// "Clone this voice": a sample of the person speaking (MP3, WAV or M4A, up to 11MB; 1-10 minutes
// works best), a name, and the owner's confirmation that they may use this voice. ElevenLabs makes
// an instant clone and the personality speaks with it from then on.
import { useId, useRef, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { LoaderCircleIcon, WandSparklesIcon } from 'lucide-react';
import { messages } from '../../../../shared/messages';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { useVoiceCapabilities } from '../../voice/api/voice-api';
import { useCloneVoice } from '../api/clone-voice';
import { AUDIO_ACCEPT, audioFileProblem, CLONE_SAMPLE_MAX_BYTES } from '../utils/audio-validation';

export function VoiceCloneForm({ personalityId }: { personalityId: string }) {
  const id = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [sample, setSample] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [consent, setConsent] = useState(false);
  // What went wrong, said once, in this form's alert: a toast is hidden from screen readers behind
  // the dialog, and a toast as well would put the same words on the page twice. A refusal from the
  // server has the spec's title ("Voice Training Failed", "ElevenLabs Subscription Required").
  const [error, setError] = useState<string | null>(null);
  const [errorTitle, setErrorTitle] = useState<string | null>(null);
  const cloneVoice = useCloneVoice();
  const capabilities = useVoiceCapabilities();
  const unavailable = capabilities.data?.cloning?.available === false;

  function choose(next: File | null) {
    setSample(next);
    setErrorTitle(null);
    setError(next ? audioFileProblem(next, CLONE_SAMPLE_MAX_BYTES, messages.voice.cloneTooLarge) : null);
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setErrorTitle(null);
    if (!sample) return setError(messages.voice.cloneNoFile);
    const problem = audioFileProblem(sample, CLONE_SAMPLE_MAX_BYTES, messages.voice.cloneTooLarge);
    if (problem) return setError(problem);
    if (!consent) return setError(messages.voice.cloneConsentRequired);
    setError(null);
    cloneVoice.mutate(
      { personalityId, sample, name, description: '' },
      {
        onSuccess: () => {
          toast.success(messages.voice.cloned(name.trim() || 'this personality'), { description: 'Replies are now spoken in this voice.' });
          setSample(null);
          setName('');
          setConsent(false);
          if (fileInput.current) fileInput.current.value = '';
        },
        onError: (err) => {
          if (err instanceof ApiError && err.code === 'CLONE_SUBSCRIPTION') {
            setErrorTitle(messages.voice.cloneSubscription);
            setError(messages.voice.cloneSubscriptionHint);
            return;
          }
          const reason = err instanceof ApiError && typeof err.details?.reason === 'string' ? err.details.reason : errorMessage(err);
          setErrorTitle(messages.voice.cloneFailed);
          setError(reason);
        },
      },
    );
  }

  const busy = cloneVoice.isPending;
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Clone this voice" className="grid min-w-0 content-start gap-2 rounded-lg border border-dashed p-3">
      <p className="flex items-center gap-1.5 text-sm font-medium">
        <WandSparklesIcon className="size-4 text-muted-foreground" aria-hidden />
        Clone this voice
      </p>
      <div className="grid gap-2 sm:grid-cols-2">
        <div className="grid gap-1">
          <Label htmlFor={`${id}-sample`} className="text-xs">
            Voice sample
          </Label>
          <Input
            ref={fileInput}
            id={`${id}-sample`}
            type="file"
            accept={AUDIO_ACCEPT}
            disabled={unavailable || busy}
            aria-describedby={`${id}-hint`}
            onChange={(e) => choose(e.target.files?.[0] ?? null)}
          />
        </div>
        <div className="grid gap-1">
          <Label htmlFor={`${id}-name`} className="text-xs">
            Voice name (optional)
          </Label>
          <Input id={`${id}-name`} value={name} maxLength={100} placeholder="The personality's name" disabled={unavailable || busy} onChange={(e) => setName(e.target.value)} />
        </div>
      </div>
      <div className="flex items-start gap-2">
        <Checkbox id={`${id}-consent`} checked={consent} disabled={unavailable || busy} onCheckedChange={(checked) => setConsent(checked === true)} />
        <Label htmlFor={`${id}-consent`} className="text-xs leading-snug font-normal">
          {messages.voice.cloneConsentText}
        </Label>
      </div>
      <div>
        <Button type="submit" size="sm" variant="secondary" disabled={unavailable || busy}>
          {busy ? <LoaderCircleIcon className="animate-spin" aria-hidden /> : <WandSparklesIcon aria-hidden />}
          Create Voice Clone
        </Button>
      </div>
      {error && (
        <p role="alert" className="text-xs [overflow-wrap:anywhere] text-destructive">
          {errorTitle && <strong className="block font-semibold">{errorTitle}</strong>}
          {error}
        </p>
      )}
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        {unavailable ? (capabilities.data?.cloning.howToConfigure ?? messages.voice.cloneNotConfigured) : messages.voice.cloneHint}
      </p>
    </form>
  );
}
