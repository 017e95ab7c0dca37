// "Report" on a reply: an optional reason, then the reply goes to the admins' Content Moderation
// tab as a flag. Signed-out visitors can report too (no reporter is recorded for them).
import { useId, useState, type FormEvent } from 'react';
import { FlagIcon, LoaderCircleIcon } from 'lucide-react';
import { useMutation } from '@tanstack/react-query';
import { toast } from 'sonner';
import { messages } from '../../../../shared/messages';
import { api, unwrap } from '../../../lib/api-client';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '../../../components/ui/dialog';
import { Label } from '../../../components/ui/label';
import { Textarea } from '../../../components/ui/textarea';
import { DoNotReadText } from '../../../components/do-not-read-text';

interface Props {
  personalityId: string;
  content: string;
  /** The reply's id: a saved reply is found by it, so its own text is what gets reported. */
  messageId?: string;
  /** The token a streamed reply came with, vouching for its text (an unsaved conversation). */
  replyToken?: string;
}

export function ReportReplyDialog({ personalityId, content, messageId, replyToken }: Props) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const reasonId = useId();
  const report = useMutation({
    mutationFn: async () =>
      unwrap(api.api.personalities[':id'].reports.$post({ param: { id: personalityId }, json: { content, reason, messageId, replyToken } })),
  });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    report.mutate(undefined, {
      onSuccess: () => {
        toast.success(messages.moderation.reportSent);
        setOpen(false);
        setReason('');
      },
      onError: () => toast.error(messages.moderation.reportFailed),
    });
  }

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="ghost" size="sm" className="h-7 justify-self-start px-2 text-xs text-muted-foreground" aria-label="Report this reply">
          <FlagIcon aria-hidden />
          Report
        </Button>
      </DialogTrigger>
      <DialogContent className="sm:max-w-md">
        <form onSubmit={onSubmit} className="grid gap-4">
          <DialogHeader>
            <DialogTitle>{messages.moderation.reportTitle}</DialogTitle>
            <DialogDescription>An administrator will review it. Tell them what is wrong, if you like.</DialogDescription>
          </DialogHeader>
          {/* Scrolls on its own: focusable, so it can be scrolled with the keyboard, and named. */}
          <div
            role="region"
            aria-label="The reply you are reporting"
            tabIndex={0}
            className="max-h-32 overflow-y-auto rounded-md bg-muted/50 px-3 py-2 text-sm outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            <blockquote dir="auto" className="whitespace-pre-wrap [overflow-wrap:anywhere]">
              <DoNotReadText text={content} />
            </blockquote>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={reasonId}>{messages.moderation.reportReasonLabel}</Label>
            <Textarea id={reasonId} value={reason} maxLength={1000} onChange={(e) => setReason(e.target.value)} rows={3} />
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={report.isPending}>
              {report.isPending ? <LoaderCircleIcon className="animate-spin" aria-hidden /> : <FlagIcon aria-hidden />}
              Report
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
