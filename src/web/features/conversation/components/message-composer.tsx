// The message box: Enter sends, Shift+Enter adds a line; "Preview" and "Send Message" need a
// non-blank message (spec section 5). While a reply streams in, "Stop" takes Send's place.
import { forwardRef, type KeyboardEvent } from 'react';
import { EyeIcon, LoaderCircleIcon, SendIcon, SquareIcon } from 'lucide-react';
import { limits } from '../../../../shared/limits';
import { Button } from '../../../components/ui/button';
import { Textarea } from '../../../components/ui/textarea';

interface Props {
  personalityName: string;
  value: string;
  onChange: (value: string) => void;
  onSend: () => void;
  onPreview: () => void;
  onStop: () => void;
  streaming: boolean;
  previewing: boolean;
  disabled?: boolean;
}

export const MessageComposer = forwardRef<HTMLTextAreaElement, Props>(function MessageComposer(
  { personalityName, value, onChange, onSend, onPreview, onStop, streaming, previewing, disabled = false },
  ref,
) {
  const blank = value.trim() === '';
  const canSend = !blank && !streaming && !previewing && !disabled;

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter while composing (an IME candidate) picks the candidate, it does not send.
    if (e.key !== 'Enter' || e.shiftKey || e.nativeEvent.isComposing) return;
    e.preventDefault();
    if (canSend) onSend();
  };

  return (
    <form
      className="grid gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (canSend) onSend();
      }}
    >
      <label htmlFor="chat-message" className="sr-only">
        Message to {personalityName}
      </label>
      <Textarea
        ref={ref}
        id="chat-message"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
        maxLength={limits.chatMessageMax}
        rows={2}
        disabled={disabled}
        placeholder={`Message ${personalityName}…`}
        aria-describedby="chat-message-hint"
        className="max-h-48 min-h-16 resize-none"
      />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p id="chat-message-hint" className="text-xs text-muted-foreground">
          Enter to send, Shift+Enter for a new line
        </p>
        <div className="ml-auto flex gap-2">
          {/* While the preview loads it waits, focusable (aria-disabled): focus stays on it. */}
          <Button
            type="button"
            variant="outline"
            onClick={() => canSend && onPreview()}
            disabled={!canSend && !previewing}
            aria-disabled={previewing || undefined}
          >
            {previewing ? <LoaderCircleIcon className="animate-spin" aria-hidden /> : <EyeIcon aria-hidden />}
            Preview
          </Button>
          {streaming ? (
            <Button type="button" variant="destructive" onClick={onStop}>
              <SquareIcon aria-hidden className="fill-current" />
              Stop
            </Button>
          ) : (
            <Button type="submit" variant="mystical" disabled={!canSend}>
              <SendIcon aria-hidden />
              Send Message
            </Button>
          )}
        </div>
      </div>
    </form>
  );
});
