import { LoaderCircle } from 'lucide-react';
import { useViewer } from '../../features/auth/hooks/use-viewer';
import { OnboardingDialog } from '../../features/onboarding/components/onboarding-dialog';
import { PersonalitiesDashboard } from '../../features/personalities/components/personalities-dashboard';
import { ConversationView } from '../../features/conversation/components/conversation-view';
import { ShareDialog } from '../../features/sharing/components/share-dialog';

/** "/": the personalities dashboard, and onboarding for a signed-in user who has not seen it. */
export function HomeRoute() {
  const { user, isLoading } = useViewer();
  if (isLoading) {
    return (
      <div role="status" className="flex items-center justify-center gap-2 py-24 text-muted-foreground">
        <LoaderCircle className="size-5 animate-spin" aria-hidden="true" />
        Loading...
      </div>
    );
  }
  return (
    <>
      <PersonalitiesDashboard
        renderConversation={(personality, onBack) => <ConversationView personality={personality} onBack={onBack} />}
        renderShareAction={(personality, onChanged) => <ShareDialog personality={personality} onChanged={onChanged} />}
      />
      <OnboardingDialog userId={user?.id ?? null} />
    </>
  );
}
