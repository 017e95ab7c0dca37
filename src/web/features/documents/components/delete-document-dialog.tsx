// Deleting a document asks first (spec section 5); the chunks and stored file go with it.
import { toast } from 'sonner';
import { LoaderCircleIcon, Trash2Icon } from 'lucide-react';
import { messages } from '../../../../shared/messages';
import type { DocumentDto } from '../../../../shared/schemas/documents';
import { errorMessage } from '../../../lib/api-client';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { useDeleteDocument } from '../api/delete-document';

export function DeleteDocumentDialog({ personalityId, document }: { personalityId: string; document: DocumentDto }) {
  const remove = useDeleteDocument();

  const onConfirm = () =>
    remove.mutate(
      { personalityId, documentId: document.id },
      {
        onSuccess: () => toast.success('Document deleted', { description: document.fileName }),
        onError: (err) => toast.error(messages.documents.deleteFailed, { description: errorMessage(err) }),
      },
    );

  return (
    <ConfirmDialog
      trigger={
        <Button
          variant="ghost"
          size="icon"
          className="size-8 text-muted-foreground hover:text-destructive"
          aria-label={`Delete ${document.fileName}`}
          title="Delete"
          disabled={remove.isPending}
        >
          {remove.isPending ? <LoaderCircleIcon className="animate-spin" aria-hidden /> : <Trash2Icon aria-hidden />}
        </Button>
      }
      title="Delete document?"
      description={messages.documents.deleteConfirm(document.fileName)}
      confirmLabel="Delete"
      onConfirm={onConfirm}
    />
  );
}
