// The sharing level select. Public is labelled by what it means for the viewer: admins apply it
// directly, everyone else has to ask an admin.
import { useId } from 'react';
import { GlobeIcon, LockIcon, UsersIcon } from 'lucide-react';
import type { SharingType } from '../../../../shared/limits';
import { Label } from '../../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';

interface Props {
  value: SharingType;
  isAdmin: boolean;
  disabled?: boolean;
  onChange: (next: SharingType) => void;
}

export function sharingLevelLabel(level: SharingType, isAdmin: boolean): string {
  if (level === 'private') return 'Private';
  if (level === 'shared') return 'Shared with specific users';
  return isAdmin ? 'Public (Admin Only)' : 'Public (Requires Approval)';
}

const icons = { private: LockIcon, shared: UsersIcon, public: GlobeIcon } as const;

export function SharingLevelSelect({ value, isAdmin, disabled, onChange }: Props) {
  const id = useId();
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>Sharing level</Label>
      <Select value={value} onValueChange={(next) => onChange(next as SharingType)} disabled={disabled}>
        <SelectTrigger id={id} aria-label="Sharing level">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {(['private', 'shared', 'public'] as const).map((level) => {
            const Icon = icons[level];
            return (
              <SelectItem key={level} value={level}>
                <span className="flex items-center gap-2">
                  <Icon className="size-4 text-muted-foreground" aria-hidden />
                  {sharingLevelLabel(level, isAdmin)}
                </span>
              </SelectItem>
            );
          })}
        </SelectContent>
      </Select>
    </div>
  );
}
