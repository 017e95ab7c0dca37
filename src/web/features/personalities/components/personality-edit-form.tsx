// Inline edit on the owner's card. A blank name is silently not saved (spec section 5): no
// request goes out and the form stays open.
import { useEffect, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { LoaderCircleIcon } from 'lucide-react';
import { messages } from '../../../../shared/messages';
import { isBlank } from '../../../../shared/text/visible';
import type { Personality } from '../../../../shared/schemas/personality';
import { ApiError } from '../../../lib/api-client';
import { Button } from '../../../components/ui/button';
import { useUpdatePersonality } from '../api/update-personality';
import { formValuesFrom, rebaseForm, toUpdateBody, type PersonalityFormValues } from '../utils/personality-form';
import { PersonalityTextFields } from './personality-text-fields';
import { PersonalityVoiceFields } from './personality-voice-fields';

interface Props {
  personality: Personality;
  onDone: () => void;
}

export function PersonalityEditForm({ personality, onDone }: Props) {
  const [values, setValues] = useState<PersonalityFormValues>(() => formValuesFrom(personality));
  // The personality as the form last knew it: what "changed" is measured against, and the values
  // the save expects of the fields it changes (another tab's save, or a voice clone, may move them).
  const [baseline, setBaseline] = useState(() => ({ values: formValuesFrom(personality), updatedAt: personality.updatedAt }));
  const update = useUpdatePersonality();

  useEffect(() => {
    if (personality.updatedAt === baseline.updatedAt) return;
    const fresh = formValuesFrom(personality);
    setValues((v) => rebaseForm(v, baseline.values, fresh));
    setBaseline({ values: fresh, updatedAt: personality.updatedAt });
  }, [personality, baseline]);
  const idPrefix = `edit-${personality.id}`;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (isBlank(values.name)) return;
    update.mutate(
      { id: personality.id, changes: toUpdateBody(values, baseline.values) },
      {
        onSuccess: () => {
          toast.success(messages.personality.updated);
          onDone();
        },
        onError: (err) => {
          toast.error(messages.personality.updateFailed, {
            description: err instanceof ApiError ? err.message : undefined,
          });
        },
      },
    );
  };

  return (
    <form
      noValidate
      onSubmit={onSubmit}
      onKeyDown={(e) => {
        // Escape inside an open select closes the select only (Radix stops the event there).
        if (e.key === 'Escape' && !update.isPending) onDone();
      }}
      aria-label={`Edit ${personality.name}`}
      className="grid gap-4 px-5 sm:px-6"
    >
      <PersonalityTextFields idPrefix={idPrefix} values={values} onChange={setValues} autoFocusName />
      <PersonalityVoiceFields
        idPrefix={idPrefix}
        values={values}
        onChange={setValues}
        customVoiceId={personality.customVoiceId}
      />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="ghost" onClick={onDone} disabled={update.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending && <LoaderCircleIcon className="animate-spin" aria-hidden />}
          {update.isPending ? 'Saving...' : 'Save'}
        </Button>
      </div>
    </form>
  );
}
