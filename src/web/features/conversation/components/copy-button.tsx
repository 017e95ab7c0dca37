// "Copy" for a reply or one of its code blocks: the text goes to the clipboard, and the button says
// "Copied" for a moment (announced politely, so a screen reader hears it worked).
import { useEffect, useRef, useState } from 'react';
import { CheckIcon, CopyIcon } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { copyText } from '../../../lib/copy-text';
import { cn } from '../../../lib/cn';

interface Props {
  /** Read when clicked (a code block's text is read from the page then). */
  text: () => string;
  /** The button's accessible name, e.g. "Copy reply" or "Copy code". */
  label: string;
  className?: string;
}

export const COPIED_FOR_MS = 2000;

export function CopyButton({ text, label, className }: Props) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const onClick = async () => {
    if (!(await copyText(text()))) {
      toast.error('Could not copy. Select the text and copy it instead.');
      return;
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_FOR_MS);
  };

  return (
    <Button type="button" variant="ghost" size="sm" onClick={onClick} aria-label={label} className={cn('h-7 gap-1 px-2 text-xs text-muted-foreground', className)}>
      {copied ? <CheckIcon aria-hidden /> : <CopyIcon aria-hidden />}
      <span aria-live="polite">{copied ? 'Copied' : 'Copy'}</span>
    </Button>
  );
}
