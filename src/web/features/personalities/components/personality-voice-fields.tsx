// Voice provider, voice, agent id (elevenlabs) and phonetic transcription (openai): shared by
// the create form and the inline edit form so both follow the same voice rules.
import { ELEVENLABS_PRESETS, OPENAI_VOICES, VOICE_PROVIDERS, type VoiceProvider } from '../../../../shared/limits';
import { limits } from '../../../../shared/limits';
import { Checkbox } from '../../../components/ui/checkbox';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import { PROVIDER_LABELS } from '../utils/personality-labels';
import { withProvider, type PersonalityFormValues } from '../utils/personality-form';

interface Props {
  values: PersonalityFormValues;
  onChange: (values: PersonalityFormValues) => void;
  /** Makes ids unique when several forms are on the page. */
  idPrefix: string;
  /** A cloned ElevenLabs voice this personality owns, offered beside the presets. */
  customVoiceId?: string | null;
}

export function PersonalityVoiceFields({ values, onChange, idPrefix, customVoiceId }: Props) {
  const id = (name: string) => `${idPrefix}-${name}`;
  const elevenLabsVoices: { value: string; label: string }[] = [...ELEVENLABS_PRESETS];
  if (customVoiceId) elevenLabsVoices.push({ value: customVoiceId, label: 'Custom voice' });

  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <div className="grid gap-2">
        <Label htmlFor={id('provider')}>Voice provider</Label>
        <Select
          value={values.voiceProvider}
          onValueChange={(v) => onChange(withProvider(values, v as VoiceProvider))}
        >
          <SelectTrigger id={id('provider')}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {VOICE_PROVIDERS.map((p) => (
              <SelectItem key={p} value={p}>
                {PROVIDER_LABELS[p]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>

      {values.voiceProvider === 'openai' && (
        <VoiceSelect
          id={id('voice')}
          label="OpenAI voice"
          value={values.voice ?? 'alloy'}
          options={OPENAI_VOICES}
          onValueChange={(voice) => onChange({ ...values, voice })}
        />
      )}

      {values.voiceProvider === 'elevenlabs' && (
        <VoiceSelect
          id={id('voice')}
          label="ElevenLabs voice"
          value={values.voice ?? 'female'}
          options={elevenLabsVoices}
          onValueChange={(voice) => onChange({ ...values, voice })}
        />
      )}

      {values.voiceProvider === 'openai' && (
        <div className="flex items-start gap-3 rounded-lg border border-dashed bg-muted/40 p-3 sm:col-span-2">
          <Checkbox
            id={id('phonetic')}
            checked={values.enablePhoneticTranscription}
            onCheckedChange={(checked) => onChange({ ...values, enablePhoneticTranscription: checked === true })}
            aria-describedby={id('phonetic-hint')}
          />
          <div className="grid gap-1">
            <Label htmlFor={id('phonetic')}>Enable phonetic transcription</Label>
            <p id={id('phonetic-hint')} className="text-xs text-muted-foreground">
              Transcribes speech as it sounds, for pronunciation and accent practice.
            </p>
          </div>
        </div>
      )}

      {values.voiceProvider === 'elevenlabs' && (
        <div className="grid gap-2 sm:col-span-2">
          <Label htmlFor={id('agent')}>Agent ID</Label>
          <Input
            id={id('agent')}
            value={values.agentId}
            maxLength={limits.agentIdMax}
            placeholder="ElevenLabs conversational agent id"
            autoComplete="off"
            onChange={(e) => onChange({ ...values, agentId: e.target.value })}
            aria-describedby={id('agent-hint')}
          />
          <p id={id('agent-hint')} className="text-xs text-muted-foreground">
            Needed for ElevenLabs voice conversations (Open Mic Chat).
          </p>
        </div>
      )}
    </div>
  );
}

interface VoiceSelectProps {
  id: string;
  label: string;
  value: string;
  options: readonly { value: string; label: string }[];
  onValueChange: (value: string) => void;
}

function VoiceSelect({ id, label, value, options, onValueChange }: VoiceSelectProps) {
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Select value={value} onValueChange={onValueChange}>
        <SelectTrigger id={id}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {options.map((o) => (
            <SelectItem key={o.value} value={o.value}>
              {o.label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
