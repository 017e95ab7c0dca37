// The owner's way to public: "Want to make this public?" with a "Request Public" dialog, a
// "Public Request Pending" badge while an admin has not decided, and, after a rejection, a note
// saying so with the option to ask again. Hidden by the dialog once the personality is public.
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { ClockIcon, GlobeIcon, SendIcon } from 'lucide-react';
import { limits } from '../../../../shared/limits';
import { messages } from '../../../../shared/messages';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { useAgo } from '../../../lib/relative-age';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '../../../components/ui/dialog';
import { Label } from '../../../components/ui/label';
import { Textarea } from '../../../components/ui/textarea';
import { useCreatePublicRequest } from '../api/create-public-request';
import { useLatestPublicRequest } from '../api/get-latest-public-request';

export function PublicRequestBlock({ personalityId, personalityName }: { personalityId: string; personalityName: string }) {
  const latest = useLatestPublicRequest(personalityId, true);
  const request = latest.data ?? null;
  const ago = useAgo();

  if (latest.isPending) {
    return (
      <p role="status" className="text-sm text-muted-foreground">
        Loading...
      </p>
    );
  }

  if (request?.status === 'pending') {
    return (
      <div className="grid gap-2 rounded-lg border border-warning/50 bg-warning/10 p-4">
        <Badge variant="warning" className="gap-1.5">
          <ClockIcon aria-hidden />
          {messages.sharing.requestPendingBadge}
        </Badge>
        <p className="text-sm text-muted-foreground">
          Submitted {ago(request.createdAt)}. An admin will review it.
        </p>
      </div>
    );
  }

  return (
    <div className="grid gap-3 rounded-lg border bg-muted/40 p-4">
      <div className="grid gap-1">
        <p className="flex items-center gap-2 text-sm font-medium">
          <GlobeIcon className="size-4 text-primary" aria-hidden />
          Want to make this public?
        </p>
        <p className="text-sm text-muted-foreground">
          Public personalities can be found and chatted with by everyone, including visitors without an account. An
          admin reviews each request.
        </p>
      </div>
      {request?.status === 'rejected' && (
        <p role="note" className="rounded-md border border-destructive/30 bg-destructive/5 px-3 py-2 text-sm">
          {messages.sharing.requestRejected}
        </p>
      )}
      <RequestPublicDialog personalityId={personalityId} personalityName={personalityName} />
    </div>
  );
}

function RequestPublicDialog({ personalityId, personalityName }: { personalityId: string; personalityName: string }) {
  const [open, setOpen] = useState(false);
  const [message, setMessage] = useState('');
  const create = useCreatePublicRequest();
  const id = useId();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    create.mutate(
      { personalityId, message: message.trim() },
      {
        onSuccess: () => {
          toast.success(messages.sharing.requestSubmittedTitle, { description: messages.sharing.requestSubmittedBody });
          setMessage('');
          setOpen(false);
        },
        onError: (err) => {
          // 409: one is already pending (or it became public meanwhile); the server says which.
          if (err instanceof ApiError && err.status === 409) {
            toast.error(err.message);
            setOpen(false);
          } else {
            toast.error(messages.sharing.requestFailed, { description: errorMessage(err) });
          }
        },
      },
    );
  }

  return (
    <Dialog open={open} onOpenChange={(next) => !create.isPending && setOpen(next)}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" className="justify-self-start">
          <GlobeIcon aria-hidden />
          Request Public
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Request Public</DialogTitle>
          <DialogDescription>Ask an admin to make &ldquo;{personalityName}&rdquo; public for everyone.</DialogDescription>
        </DialogHeader>
        <form onSubmit={onSubmit} className="grid gap-4">
          <div className="grid gap-2">
            <Label htmlFor={id}>Message to admin (optional)</Label>
            <Textarea
              id={id}
              rows={4}
              maxLength={limits.requestMessageMax}
              placeholder="Why should this personality be public?"
              value={message}
              onChange={(e) => setMessage(e.target.value)}
            />
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" variant="mystical" disabled={create.isPending}>
              <SendIcon aria-hidden />
              {create.isPending ? 'Submitting...' : 'Submit Request'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
