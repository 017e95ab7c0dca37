// The User Questions tab: what people asked this personality, the latest 50 newest first, with a
// "Registered User" badge when a signed-in person asked (who it was is not disclosed), and the
// control that deletes everything asked before a chosen date.
import { formatDateTime } from '../../../lib/date-format';
import { RotateCwIcon } from 'lucide-react';
import { limits } from '../../../../shared/limits';
import { messages } from '../../../../shared/messages';
import { errorMessage } from '../../../lib/api-client';
import { Alert, AlertDescription, AlertTitle } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { useListQuestions } from '../api/list-questions';
import { QuestionDeleteForm } from './question-delete-form';

export function QuestionsTab({ personalityId }: { personalityId: string }) {
  const questions = useListQuestions(personalityId);

  let body;
  if (questions.isError && !questions.data) {
    body = (
      <Alert variant="destructive">
        <AlertTitle>Failed to load questions</AlertTitle>
        <AlertDescription>
          <p>{errorMessage(questions.error)}</p>
          <Button variant="outline" size="sm" className="mt-2" onClick={() => void questions.refetch()} disabled={questions.isFetching}>
            <RotateCwIcon className={questions.isFetching ? 'animate-spin' : undefined} aria-hidden />
            Retry
          </Button>
        </AlertDescription>
      </Alert>
    );
  } else if (!questions.data) {
    body = (
      <p role="status" className="text-sm text-muted-foreground">
        Loading...
      </p>
    );
  } else if (questions.data.length === 0) {
    body = (
      <p className="rounded-lg border border-dashed px-4 py-6 text-center text-sm text-muted-foreground">
        No questions yet. Questions people ask in chats appear here.
      </p>
    );
  } else {
    body = (
      <ul aria-label="Questions" className="grid gap-2">
        {questions.data.map((q) => (
          <li key={q.id} className="grid min-w-0 gap-1.5 rounded-lg border bg-card p-3">
            <p className="text-sm [overflow-wrap:anywhere] whitespace-pre-wrap">{q.questionText}</p>
            <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
              <time dateTime={q.askedAt}>{formatDateTime(q.askedAt)}</time>
              {q.isRegisteredUser && <Badge variant="secondary">{messages.questions.registeredUser}</Badge>}
            </div>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <div className="grid min-w-0 gap-5 pt-1">
      <QuestionDeleteForm personalityId={personalityId} />
      <section aria-label="Recent questions" className="grid gap-2">
        <h3 className="text-sm font-medium">Latest {limits.questionsListLimit} questions, newest first</h3>
        {body}
      </section>
    </div>
  );
}
