// The sharing badge (Public, Shared, Private) and the voice badge on a card.
import { GlobeIcon, LockIcon, UsersIcon, Volume2Icon } from 'lucide-react';
import type { Personality } from '../../../../shared/schemas/personality';
import { Badge } from '../../../components/ui/badge';
import { SHARING_LABELS, sharingOf, voiceLabel } from '../utils/personality-labels';

const sharingStyle = {
  public: { icon: GlobeIcon, variant: 'success' },
  shared: { icon: UsersIcon, variant: 'secondary' },
  private: { icon: LockIcon, variant: 'outline' },
} as const;

export function PersonalityBadges({ personality }: { personality: Personality }) {
  const sharing = sharingOf(personality);
  const { icon: SharingIcon, variant } = sharingStyle[sharing];
  return (
    <div className="flex flex-wrap items-center gap-1.5">
      <Badge variant={variant} data-testid="sharing-badge">
        <SharingIcon aria-hidden />
        {SHARING_LABELS[sharing]}
      </Badge>
      <Badge variant="outline" className="border-gold/60 bg-accent/40" data-testid="voice-badge">
        <Volume2Icon aria-hidden />
        {voiceLabel(personality)}
      </Badge>
    </div>
  );
}
