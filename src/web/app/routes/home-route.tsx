import { LoaderCircle } from 'lucide-react';
import { useViewer } from '../../features/auth/hooks/use-viewer';
import { OnboardingDialog } from '../../features/onboarding/components/onboarding-dialog';
import { PersonalitiesDashboard } from '../../features/personalities/components/personalities-dashboard';
import { ConversationView } from '../../features/conversation/components/conversation-view';
import { ShareDialog } from '../../features/sharing/components/share-dialog';
import { DocumentsModal } from '../../features/documents/components/documents-modal';
import { useDocumentsParam } from '../../features/documents/hooks/use-documents-param';

/** "/": the personalities dashboard, and onboarding for a signed-in user who has not seen it. */
export function HomeRoute() {
  const { user, isLoading } = useViewer();
  // ?docs={id}: the documents modal (?source={documentId}&chunk={index} opens the source view).
  const documents = useDocumentsParam();
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
        renderConversation={(personality, onBack) => (
          <ConversationView
            personality={personality}
            onBack={onBack}
            // A reply's reference opens the documents feature's source view at that chunk.
            onOpenSource={(reference) => documents.openDocuments(personality.id, reference)}
          />
        )}
        renderShareAction={(personality, onChanged) => <ShareDialog personality={personality} onChanged={onChanged} />}
        onOpenDocuments={(personality) => documents.openDocuments(personality.id)}
      />
      <OnboardingDialog userId={user?.id ?? null} />
      {documents.personalityId && (
        <DocumentsModal
          personalityId={documents.personalityId}
          reference={documents.reference}
          onClose={documents.closeDocuments}
        />
      )}
    </>
  );
}
