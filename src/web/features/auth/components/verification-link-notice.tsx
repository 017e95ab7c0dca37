import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { CircleAlert, X } from 'lucide-react';
import { Alert, AlertDescription } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { messages } from '../../../../shared/messages';
import { useViewer } from '../hooks/use-viewer';

/**
 * What a confirmation link's failure means to the person. The server (better-auth's
 * verify-email) redirects to /?error=CODE when a link cannot be used; other codes are not ours.
 */
const LINK_ERRORS: Record<string, string> = {
  TOKEN_EXPIRED: messages.auth.verificationLinkExpired,
  INVALID_TOKEN: messages.auth.verificationLinkInvalid,
  USER_NOT_FOUND: messages.auth.verificationLinkUnknownUser,
  INVALID_USER: messages.auth.verificationLinkOtherUser,
};

/**
 * On "/": the message for a confirmation link that did not work. It used to be ignored, so a
 * person whose link had expired saw the signed-out home page and no reason. The parameter is
 * removed from the address at once (a reload or a bookmark does not repeat the message); the
 * message stays until dismissed.
 */
export function VerificationLinkNotice() {
  const [params, setParams] = useSearchParams();
  const code = params.get('error');
  const [text, setText] = useState<string | null>(() => (code ? (LINK_ERRORS[code] ?? null) : null));
  const { user } = useViewer();

  useEffect(() => {
    if (!code || !LINK_ERRORS[code]) return;
    setText(LINK_ERRORS[code]);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('error');
        return next;
      },
      { replace: true },
    );
  }, [code, setParams]);

  if (!text) return null;
  return (
    <div className="mx-auto w-full max-w-6xl px-4 pt-6 sm:px-6 sm:pt-8">
      <Alert variant="destructive" className="pr-12" data-testid="verification-link-notice">
        <CircleAlert aria-hidden="true" />
        <AlertDescription>
          <p>{text}</p>
          {!user && (
            <Button asChild variant="outline" size="sm">
              <Link to="/auth">Sign In</Link>
            </Button>
          )}
        </AlertDescription>
        <Button
          variant="ghost"
          size="icon"
          className="absolute top-2 right-2 size-7"
          aria-label="Dismiss"
          title="Dismiss"
          onClick={() => setText(null)}
        >
          <X aria-hidden="true" />
        </Button>
      </Alert>
    </div>
  );
}
