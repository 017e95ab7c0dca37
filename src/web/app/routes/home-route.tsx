import { Suspense } from 'react';
import { lazyNamed } from '../../lib/lazy-named';
import { ScreenLoading } from '../app-routes';
import { useViewer } from '../../features/auth/hooks/use-viewer';
import { OnboardingDialog } from '../../features/onboarding/components/onboarding-dialog';
import { PersonalitiesDashboard } from '../../features/personalities/components/personalities-dashboard';
import { useDocumentsParam } from '../../features/documents/hooks/use-documents-param';
import { VerificationLinkNotice } from '../../features/auth/components/verification-link-notice';

// Loaded when opened: the conversation (Markdown rendering, streaming) and the documents modal
// (upload, drag-and-drop, source view) are most of the code behind "/".
const ConversationView = lazyNamed(() => import('../../features/conversation/components/conversation-view'), 'ConversationView');
const DocumentsModal = lazyNamed(() => import('../../features/documents/components/documents-modal'), 'DocumentsModal');
// The Share dialog (the sharing level's select and its positioning library) when a card's Share
// button is first pressed: the card keeps its button in place while it loads.
const ShareDialog = lazyNamed(() => import('../../features/sharing/components/share-dialog'), 'ShareDialog');

/** "/": the personalities dashboard, and onboarding for a signed-in user who has not seen it. */
export function HomeRoute() {
  const { user, isLoading } = useViewer();
  // ?docs={id}: the documents modal (?source={documentId}&chunk={index} opens the source view).
  const documents = useDocumentsParam();
  if (isLoading) {
    return <ScreenLoading />;
  }
  return (
    <>
      {/* ?error= from a confirmation link that could not be used (expired, invalid). */}
      <VerificationLinkNotice />
      <PersonalitiesDashboard
        renderConversation={(personality, onBack) => (
          <Suspense fallback={<ScreenLoading />}>
            <ConversationView
              personality={personality}
              onBack={onBack}
              // A reply's reference opens the documents feature's source view at that chunk.
              onOpenSource={(reference) => documents.openDocuments(personality.id, reference)}
            />
          </Suspense>
        )}
        renderShareAction={(personality, onChanged, { defaultOpen }) => (
          <ShareDialog personality={personality} onChanged={onChanged} defaultOpen={defaultOpen} />
        )}
        onOpenDocuments={(personality) => documents.openDocuments(personality.id)}
      />
      <OnboardingDialog userId={user?.id ?? null} />
      {documents.personalityId && (
        <Suspense fallback={null}>
          <DocumentsModal
            personalityId={documents.personalityId}
            reference={documents.reference}
            onClose={documents.closeDocuments}
          />
        </Suspense>
      )}
    </>
  );
}
