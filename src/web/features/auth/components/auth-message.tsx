import { CircleAlert, MailCheck } from 'lucide-react';
import { Alert, AlertDescription } from '../../../components/ui/alert';

export type AuthNotice = { kind: 'error' | 'confirmation'; text: string };

/** The message area's id: a field an error is about points at it with aria-describedby. */
export const AUTH_MESSAGE_ID = 'auth-message';

/** The auth screen's message area: the server's error (destructive) or a confirmation (default). */
export function AuthMessage({ notice }: { notice: AuthNotice | null }) {
  if (!notice) return null;
  const isError = notice.kind === 'error';
  return (
    <Alert
      id={AUTH_MESSAGE_ID}
      variant={isError ? 'destructive' : 'default'}
      role={isError ? 'alert' : 'status'}
      data-testid="auth-message"
      data-variant={isError ? 'destructive' : 'default'}
    >
      {isError ? <CircleAlert aria-hidden="true" /> : <MailCheck aria-hidden="true" />}
      <AlertDescription>{notice.text}</AlertDescription>
    </Alert>
  );
}
