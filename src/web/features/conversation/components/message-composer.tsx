// The message box: Enter sends, Shift+Enter adds a line; "Preview" and "Send Message" need a
// non-blank message (spec section 5). While a reply streams in, "Stop" takes Send's place.
// A message over the length limit is kept whole (never cut silently): a counter shows near the
// limit, and past it the server's own reason shows and Send waits until it is short enough.
import { forwardRef, useEffect, useImperativeHandle, useRef, type KeyboardEvent, type MouseEvent } from 'react';
import { EyeIcon, LoaderCircleIcon, SendIcon, SquareIcon } from 'lucide-react';
import { limits } from '../../../../shared/limits';
import { Button } from '../../../components/ui/button';
import { Textarea } from '../../../components/ui/textarea';
import { messages as texts } from '../../../../shared/messages';
import { isBlank } from '../../../../shared/text/visible';

/** The counter shows from this share of the limit on. */
const COUNT_FROM = 0.9;

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
  const max = limits.chatMessageMax;
  // Blank is what a person sees: zero-width or direction characters alone are no message.
  const blank = isBlank(value);
  const tooLong = value.length > max;
  const canSend = !blank && !tooLong && !streaming && !previewing && !disabled;
  const showCount = value.length >= max * COUNT_FROM;
  const describedBy = ['chat-message-hint', showCount && 'chat-message-count', tooLong && 'chat-message-too-long'].filter(Boolean).join(' ');

  // Stop appears where Send was: the second click of a double-click on Send lands on Stop, and
  // was meant for Send, not to stop the reply it just asked for. (No time window beyond that: a
  // person who sees the reply start and presses Stop at once means it.)
  const stop = (e: MouseEvent<HTMLButtonElement>) => {
    if (e.detail > 1) return;
    onStop();
  };

  // Stop leaves the page when the reply ends (stopped or finished): focus on it would fall to the
  // page's body, so a keyboard user lands back in the message box instead.
  const textarea = useRef<HTMLTextAreaElement>(null);
  useImperativeHandle(ref, () => textarea.current!, []);
  const stopHadFocus = useRef(false);
  useEffect(() => {
    if (streaming || !stopHadFocus.current) return;
    stopHadFocus.current = false;
    if (document.activeElement === document.body || document.activeElement === null) textarea.current?.focus();
  }, [streaming]);

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // Escape stops a reply that is streaming in, as the Stop button does.
    if (e.key === 'Escape' && streaming) {
      e.preventDefault();
      onStop();
      return;
    }
    // Enter while composing (an IME candidate) picks the candidate, it does not send. Safari
    // reports the committing Enter with isComposing false but keyCode 229.
    if (e.key !== 'Enter' || e.shiftKey || e.nativeEvent.isComposing || e.nativeEvent.keyCode === 229) return;
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
        ref={textarea}
        id="chat-message"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
        // Enter sends (the spec): a phone's keyboard labels its key so, as Send is often below it.
        enterKeyHint="send"
        rows={2}
        disabled={disabled}
        placeholder={`Message ${personalityName}…`}
        aria-describedby={describedBy}
        aria-invalid={tooLong || undefined}
        className="max-h-48 min-h-16 resize-none"
      />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="grid gap-1 text-xs">
          {/* Polite: said once when the message goes over, not on every character. */}
          <div aria-live="polite">
            {tooLong && (
              <p id="chat-message-too-long" className="font-medium text-destructive">
                {texts.chat.messageTooLong(max)}
              </p>
            )}
          </div>
          <p className="text-muted-foreground">
            <span id="chat-message-hint">Enter to send, Shift+Enter for a new line{streaming ? ', Escape to stop the reply' : ''}</span>
            {showCount && (
              <>
                {' · '}
                <span id="chat-message-count" className={tooLong ? 'font-medium text-destructive' : undefined}>
                  {value.length} / {max}
                </span>
              </>
            )}
          </p>
        </div>
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
            <Button
              // Keys: Stop and Send are different buttons, so focus on Stop does not pass to Send.
              key="stop"
              type="button"
              variant="destructive"
              onClick={stop}
              onFocus={() => (stopHadFocus.current = true)}
              // Blurred while still on the page: focus moved elsewhere on purpose.
              onBlur={(e) => e.currentTarget.isConnected && (stopHadFocus.current = false)}
              aria-keyshortcuts="Escape"
            >
              <SquareIcon aria-hidden className="fill-current" />
              Stop
            </Button>
          ) : (
            <Button key="send" type="submit" variant="mystical" disabled={!canSend}>
              <SendIcon aria-hidden />
              Send Message
            </Button>
          )}
        </div>
      </div>
    </form>
  );
});
