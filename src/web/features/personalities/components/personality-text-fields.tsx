// Name, description, behavior instructions and greeting: shared by the create and the inline edit form.
import { limits } from '../../../../shared/limits';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Textarea } from '../../../components/ui/textarea';
import type { PersonalityFormValues } from '../utils/personality-form';

interface Props {
  values: PersonalityFormValues;
  onChange: (values: PersonalityFormValues) => void;
  idPrefix: string;
  nameError?: string | null;
  autoFocusName?: boolean;
}

export function PersonalityTextFields({ values, onChange, idPrefix, nameError, autoFocusName }: Props) {
  const id = (name: string) => `${idPrefix}-${name}`;
  return (
    <>
      <div className="grid gap-2">
        <Label htmlFor={id('name')}>Name</Label>
        <Input
          id={id('name')}
          value={values.name}
          maxLength={limits.personalityNameMax}
          placeholder="e.g. Ada Lovelace"
          autoComplete="off"
          autoFocus={autoFocusName}
          aria-invalid={nameError ? true : undefined}
          aria-describedby={nameError ? id('name-error') : undefined}
          onChange={(e) => onChange({ ...values, name: e.target.value })}
        />
        {nameError && (
          <p id={id('name-error')} role="alert" className="text-sm font-medium text-destructive">
            {nameError}
          </p>
        )}
      </div>
      <div className="grid gap-4 md:grid-cols-2">
        <div className="grid gap-2">
          <Label htmlFor={id('description')}>Description</Label>
          <Textarea
            id={id('description')}
            value={values.description}
            maxLength={limits.personalityDescriptionMax}
            rows={4}
            placeholder="Who is this? Links (https://...) become clickable."
            onChange={(e) => onChange({ ...values, description: e.target.value })}
          />
        </div>
        <div className="grid gap-2">
          <Label htmlFor={id('behavior')}>Behavior instructions</Label>
          <Textarea
            id={id('behavior')}
            value={values.behaviorInstructions}
            maxLength={limits.behaviorInstructionsMax}
            rows={4}
            placeholder="How should this personality speak and behave?"
            onChange={(e) => onChange({ ...values, behaviorInstructions: e.target.value })}
          />
        </div>
      </div>
      <div className="grid gap-2">
        <Label htmlFor={id('greeting')}>Greeting</Label>
        <Textarea
          id={id('greeting')}
          value={values.greeting}
          maxLength={limits.personalityGreetingMax}
          rows={2}
          placeholder="The first message of every chat. Leave blank for a simple hello."
          onChange={(e) => onChange({ ...values, greeting: e.target.value })}
        />
      </div>
    </>
  );
}
