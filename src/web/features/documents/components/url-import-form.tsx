// Import an article by URL: the server fetches it (never a private or local address), keeps the
// title and readable text, and processes it like an upload.
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { GlobeIcon, LoaderCircleIcon } from 'lucide-react';
import { messages } from '../../../../shared/messages';
import { errorMessage } from '../../../lib/api-client';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { useImportDocumentUrl } from '../api/import-document-url';

export function UrlImportForm({ personalityId }: { personalityId: string }) {
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  const importUrl = useImportDocumentUrl();
  const inputId = useId();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const trimmed = url.trim();
    if (!trimmed) {
      setError(messages.documents.urlInvalid);
      return;
    }
    setError(null);
    importUrl.mutate(
      { personalityId, url: trimmed },
      {
        onSuccess: (document) => {
          toast.success('Article imported', { description: document.fileName });
          setUrl('');
        },
        onError: (err) => setError(errorMessage(err)),
      },
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="grid min-w-0 content-start gap-2">
      <Label htmlFor={inputId}>Import an article by URL</Label>
      <div className="flex gap-2">
        <Input
          id={inputId}
          type="url"
          inputMode="url"
          autoComplete="off"
          placeholder="https://example.com/article"
          value={url}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${inputId}-error` : undefined}
          onChange={(e) => {
            setUrl(e.target.value);
            setError(null);
          }}
        />
        <Button type="submit" variant="secondary" disabled={importUrl.isPending}>
          {importUrl.isPending ? <LoaderCircleIcon className="animate-spin" aria-hidden /> : <GlobeIcon aria-hidden />}
          Import
        </Button>
      </div>
      {error ? (
        <p id={`${inputId}-error`} role="alert" className="text-xs [overflow-wrap:anywhere] text-destructive">
          {error}
        </p>
      ) : (
        <p className="text-xs text-muted-foreground">The page's title and readable text are kept.</p>
      )}
    </form>
  );
}
