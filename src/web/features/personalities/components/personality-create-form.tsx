// The create form (spec sections 2 and 5): name required, description, behavior instructions
// and the voice fields. Toasts say the spec's words, with the server's reason when it gave one.
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { LoaderCircleIcon, SparklesIcon } from 'lucide-react';
import { messages } from '../../../../shared/messages';
import { hasVisibleText, isBlank } from '../../../../shared/text/visible';
import { ApiError } from '../../../lib/api-client';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { useCreatePersonality } from '../api/create-personality';
import { emptyFormValues, toRequestBody, type PersonalityFormValues } from '../utils/personality-form';
import { PersonalityTextFields } from './personality-text-fields';
import { PersonalityVoiceFields } from './personality-voice-fields';

interface Props {
  onDone: () => void;
}

export function PersonalityCreateForm({ onDone }: Props) {
  const idPrefix = `create-${useId().replace(/:/g, '')}`;
  const [values, setValues] = useState<PersonalityFormValues>(emptyFormValues);
  const [nameError, setNameError] = useState<string | null>(null);
  const create = useCreatePersonality();

  const onChange = (next: PersonalityFormValues) => {
    if (nameError && hasVisibleText(next.name)) setNameError(null);
    setValues(next);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    // Required means something shows: a name of zero-width or direction characters is no name.
    if (isBlank(values.name)) {
      setNameError(messages.personality.nameRequired);
      document.getElementById(`${idPrefix}-name`)?.focus();
      return;
    }
    create.mutate(toRequestBody(values), {
      onSuccess: () => {
        toast.success(messages.personality.created);
        setValues(emptyFormValues);
        onDone();
      },
      onError: (err) => {
        toast.error(messages.personality.createFailed, {
          description: err instanceof ApiError ? err.message : undefined,
        });
      },
    });
  };

  return (
    <Card className="animate-fade-in border-gold/50" aria-labelledby={`${idPrefix}-title`} role="region">
      <CardHeader>
        <CardTitle id={`${idPrefix}-title`} className="flex items-center gap-2">
          <SparklesIcon className="size-5 text-gold" aria-hidden />
          New personality
        </CardTitle>
        <CardDescription>Give it a name, tell it how to behave and choose how it sounds.</CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={onSubmit} className="grid gap-4">
          <PersonalityTextFields
            idPrefix={idPrefix}
            values={values}
            onChange={onChange}
            nameError={nameError}
            autoFocusName
          />
          <PersonalityVoiceFields idPrefix={idPrefix} values={values} onChange={onChange} />
          <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
            <Button type="button" variant="ghost" onClick={onDone} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" variant="mystical" disabled={create.isPending}>
              {create.isPending && <LoaderCircleIcon className="animate-spin" aria-hidden />}
              {create.isPending ? 'Creating...' : 'Create Personality'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
