// The "Docs" modal (spec section 2, "Documents for {personality}"). It asks the server who owns
// the personality first (a loading dialog meanwhile): the owner gets the Documents and User
// Questions tabs, anyone else "Access Denied". Opened with a highlighted reference, it is the
// read-only source view instead, for anyone who may see the personality.
import { useState } from 'react';
import { LoaderCircleIcon, RotateCwIcon } from 'lucide-react';
import { messages } from '../../../../shared/messages';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { useReturnFocus } from '../../../lib/focus-management';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';
import { useDocumentsAccess } from '../api/get-documents-access';
import type { DocumentReferenceTarget } from '../hooks/use-documents-param';
import { DocumentsTab } from './documents-tab';
import { QuestionsTab } from './questions-tab';
import { SourceDocumentDialog } from './source-document-dialog';

interface Props {
  personalityId: string;
  /** Known when opened from a card; the server's answer is used once it arrives. */
  personalityName?: string;
  /** A highlighted source reference: opens the read-only source view at that chunk. */
  reference?: DocumentReferenceTarget | null;
  onClose: () => void;
}

export function DocumentsModal({ personalityId, personalityName, reference, onClose }: Props) {
  if (reference) {
    return (
      <SourceDocumentDialog
        personalityId={personalityId}
        personalityName={personalityName ?? ''}
        documentId={reference.documentId}
        chunkIndex={reference.chunkIndex}
        onClose={onClose}
      />
    );
  }
  return <ManageDocumentsModal personalityId={personalityId} personalityName={personalityName} onClose={onClose} />;
}

// The title and tabs stay in place; only the open tab scrolls (long lists, the chunk viewer).
// `relative`: what is absolutely placed inside (a checkbox's hidden native input) is placed in this
// scrolling panel, not in the dialog, which it would stretch: on a phone the dialog itself then
// scrolled its title and tabs away into a blank panel.
const tabBodyClass = 'relative -mx-1 min-h-0 min-w-0 overflow-y-auto px-1 pb-1';

/** Not visible (404), not owned (403) or not signed in (401): all mean "not yours to manage". */
function isDenied(err: unknown) {
  return err instanceof ApiError && (err.status === 401 || err.status === 403 || err.status === 404);
}

function ManageDocumentsModal({ personalityId, personalityName, onClose }: Omit<Props, 'reference'>) {
  const access = useDocumentsAccess(personalityId);
  const [tab, setTab] = useState('documents');
  const name = access.data?.name ?? personalityName;
  const owner = access.data?.isOwner === true;
  // Opened through the URL (no Radix trigger): focus goes back to the card's Docs button on close.
  const returnFocus = useReturnFocus(true);

  let body;
  // The refusals end with their own Close button; the corner one would make it two "Close"s.
  let footerClose = false;
  if (access.isPending) {
    body = (
      <>
        <DialogHeader>
          <DialogTitle className="[overflow-wrap:anywhere]">{name ? messages.documents.modalTitle(name) : 'Documents'}</DialogTitle>
          <DialogDescription className="sr-only">Checking that you own this personality.</DialogDescription>
        </DialogHeader>
        <p role="status" className="flex items-center gap-2 py-6 text-muted-foreground">
          <LoaderCircleIcon className="size-5 animate-spin" aria-hidden />
          Checking permissions...
        </p>
      </>
    );
  } else if ((access.isError && isDenied(access.error)) || (access.data && !owner)) {
    footerClose = true;
    body = (
      <>
        <DialogHeader>
          <DialogTitle>{messages.documents.accessDeniedTitle}</DialogTitle>
          <DialogDescription>{messages.documents.accessDenied}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Close</Button>
          </DialogClose>
        </DialogFooter>
      </>
    );
  } else if (access.isError) {
    footerClose = true;
    body = (
      <>
        <DialogHeader>
          <DialogTitle className="[overflow-wrap:anywhere]">{name ? messages.documents.modalTitle(name) : 'Documents'}</DialogTitle>
          <DialogDescription role="alert">{errorMessage(access.error)}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Close</Button>
          </DialogClose>
          <Button onClick={() => void access.refetch()} disabled={access.isFetching}>
            <RotateCwIcon className={access.isFetching ? 'animate-spin' : undefined} aria-hidden />
            Retry
          </Button>
        </DialogFooter>
      </>
    );
  } else {
    body = (
      <>
        <DialogHeader className="shrink-0">
          <DialogTitle className="[overflow-wrap:anywhere]">{messages.documents.modalTitle(name ?? '')}</DialogTitle>
          <DialogDescription>Upload and manage what this personality knows, and see what people ask it.</DialogDescription>
        </DialogHeader>
        <Tabs value={tab} onValueChange={setTab} className="min-h-0 min-w-0 flex-1">
          <TabsList className="w-full shrink-0 sm:w-fit">
            <TabsTrigger value="documents">{messages.documents.tabDocuments}</TabsTrigger>
            <TabsTrigger value="questions">{messages.documents.tabQuestions}</TabsTrigger>
          </TabsList>
          <TabsContent value="documents" className={tabBodyClass}>
            <DocumentsTab personalityId={personalityId} />
          </TabsContent>
          <TabsContent value="questions" className={tabBodyClass}>
            <QuestionsTab personalityId={personalityId} />
          </TabsContent>
        </Tabs>
      </>
    );
  }

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className={owner ? 'flex flex-col sm:max-w-3xl' : 'sm:max-w-md'} showCloseButton={!footerClose} onCloseAutoFocus={returnFocus}>
        {body}
      </DialogContent>
    </Dialog>
  );
}
