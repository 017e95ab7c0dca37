// Test support: the two browser transports fetch cannot fake, XMLHttpRequest (uploads with
// progress) and EventSource (the live document stream), as controllable stand-ins. Install them
// with vi.stubGlobal; vi.unstubAllGlobals() puts the real ones back.
import type { UploadResponse, UploadResult } from '../../../../shared/schemas/documents';

type Answer = { status: number; body: unknown } | 'network-error';

export class FakeXhr {
  static requests: FakeXhr[] = [];
  /** When set, every request is answered at once (after a 50% progress event) with its result. */
  static autoRespond: ((file: File, request: FakeXhr) => Answer) | null = null;

  static reset() {
    FakeXhr.requests = [];
    FakeXhr.autoRespond = null;
  }

  method = '';
  url = '';
  body: FormData | null = null;
  status = 0;
  responseText = '';
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }

  send(body: FormData) {
    this.body = body;
    FakeXhr.requests.push(this);
    const auto = FakeXhr.autoRespond;
    if (auto) {
      queueMicrotask(() => {
        this.progress(0.5);
        this.answer(auto(this.file, this));
      });
    }
  }

  /** The one file this request carries (multipart field "files", or "file" for audio). */
  get file(): File {
    return (this.body?.get('files') ?? this.body?.get('file')) as File;
  }

  progress(fraction: number) {
    const total = this.file.size || 1;
    this.upload.onprogress?.({ lengthComputable: true, loaded: Math.round(total * fraction), total });
  }

  answer(answer: Answer) {
    if (answer === 'network-error') {
      this.onerror?.();
      return;
    }
    this.status = answer.status;
    this.responseText = JSON.stringify(answer.body);
    this.onload?.();
  }
}

/** The server's 200 answer for one file. */
export function uploadAnswer(result: UploadResult): { status: number; body: UploadResponse } {
  return { status: 200, body: { results: [result], uploaded: result.ok ? 1 : 0, failed: result.ok ? 0 : 1 } };
}

export class FakeEventSource {
  static instances: FakeEventSource[] = [];
  readonly url: string;
  closed = false;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  private listeners = new Map<string, ((event: MessageEvent) => void)[]>();

  constructor(url: string) {
    this.url = url;
    FakeEventSource.instances.push(this);
  }

  addEventListener(type: string, listener: (event: MessageEvent) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  close() {
    this.closed = true;
  }

  open() {
    this.onopen?.();
  }

  fail() {
    this.onerror?.();
  }

  emit(type: string, data: unknown) {
    const event = new MessageEvent(type, { data: JSON.stringify(data) });
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
}
