// Drag-and-drop or browse, several files at once; each file gets its own progress bar, and a file
// that cannot be uploaded keeps its reason on screen until dismissed.
import { useId, useRef, useState, type DragEvent } from 'react';
import { UploadCloudIcon } from 'lucide-react';
import { DOCUMENT_ACCEPT } from '../../../../shared/limits';
import { cn } from '../../../lib/cn';
import { Button } from '../../../components/ui/button';
import { useFileUploads } from '../hooks/use-file-uploads';
import { UploadProgressList } from './upload-progress-list';

export function DocumentUpload({ personalityId }: { personalityId: string }) {
  const { items, upload, dismiss } = useFileUploads(personalityId);
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const headingId = useId();

  const hasFiles = (event: DragEvent) => event.dataTransfer.types.includes('Files');
  const onDragOver = (event: DragEvent) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    void upload(Array.from(event.dataTransfer.files));
  };

  return (
    <section aria-labelledby={headingId} className="grid min-w-0 content-start gap-2">
      <h3 id={headingId} className="text-sm leading-none font-medium">
        Upload files
      </h3>
      <div
        data-testid="document-drop-zone"
        onDragOver={onDragOver}
        onDragEnter={onDragOver}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={cn(
          'flex flex-col items-center gap-2 rounded-lg border-2 border-dashed px-4 py-5 text-center transition-colors',
          dragging ? 'border-primary bg-accent/50' : 'border-border bg-muted/30',
        )}
      >
        <UploadCloudIcon className="size-7 text-muted-foreground" aria-hidden />
        {/* Touch screens cannot drag files in: they get the button alone. */}
        <p className="text-sm [@media(hover:none)]:sr-only">Drag and drop files here, or</p>
        <Button type="button" variant="outline" size="sm" onClick={() => input.current?.click()}>
          Browse files
        </Button>
        <p className="text-xs text-muted-foreground">.txt, .md, .pdf, .docx or .html, up to 10MB each</p>
        <input
          ref={input}
          type="file"
          multiple
          accept={DOCUMENT_ACCEPT}
          aria-label="Upload documents"
          tabIndex={-1}
          className="sr-only"
          onChange={(event) => {
            const files = Array.from(event.target.files ?? []);
            // Cleared so choosing the same file again fires a change.
            event.target.value = '';
            void upload(files);
          }}
        />
      </div>
      <UploadProgressList items={items} onDismiss={dismiss} />
    </section>
  );
}
