// A flag's personality name. A deleted personality's flags are kept (its record must survive
// deletion): it reads "[Deleted Personality]", struck through with a Deleted badge, as in the
// Public Requests tab, with the name it had when flagged beside it.
import { Trash2Icon } from 'lucide-react';
import { messages } from '../../../../shared/messages';
import type { ContentFlag } from '../../../../shared/schemas/moderation';
import { Badge } from '../../../components/ui/badge';
import { cn } from '../../../lib/cn';

interface Props {
  flag: Pick<ContentFlag, 'personalityName' | 'personalityDeleted' | 'personalityNameAtFlag'>;
  className?: string;
  /** Also say which name the deleted personality had (the pending card has room for it). */
  withFormerName?: boolean;
}

export function FlaggedPersonalityName({ flag, className, withFormerName = false }: Props) {
  if (!flag.personalityDeleted) {
    return (
      <span dir="auto" className={cn('min-w-0 [overflow-wrap:anywhere]', className)}>
        {flag.personalityName}
      </span>
    );
  }
  return (
    <>
      <span dir="auto" className={cn('min-w-0 [overflow-wrap:anywhere] text-muted-foreground line-through', className)}>
        {flag.personalityName}
      </span>
      <Badge variant="destructive">
        <Trash2Icon aria-hidden />
        Deleted
      </Badge>
      {withFormerName && flag.personalityNameAtFlag && (
        <span className="basis-full text-sm font-normal text-muted-foreground [overflow-wrap:anywhere]">{messages.admin.flaggedPersonalityDeleted(flag.personalityNameAtFlag)}</span>
      )}
    </>
  );
}
