// Runs in a worker thread with its own heap limit (see extract-pool.ts): the PDF, DOCX and HTML
// parsers work on untrusted bytes here, and so do the whole-text passes (decode, normalize, chunk),
// so a hostile file can exhaust or stall this worker, never the server.
import { parentPort } from 'node:worker_threads';
import type { ExtractRequest, ExtractResponse } from './extract-protocol';
import { checkUnpackedSize } from './zip-inspect';
import { normalizeExtractedText } from './text-normalize';
import { markdownToText } from './markdown-to-text';
import { chunkText } from './chunker';

type Extracted = { text: string; title: string | null };
type ExtractOp = Extract<ExtractRequest, { op: 'extract' }>;

class Failure extends Error {
  constructor(readonly failure: Exclude<ExtractResponse, { ok: true }>['failure']) {
    super(failure);
  }
}

async function extractPdf(req: ExtractOp): Promise<Extracted> {
  const { getDocumentProxy } = await import('unpdf');
  let pdf;
  try {
    pdf = await getDocumentProxy(new Uint8Array(req.bytes), { isEvalSupported: false, stopAtErrors: false });
  } catch {
    throw new Failure('corrupt');
  }
  try {
    if (pdf.numPages > req.limits.maxPages) throw new Failure('too_many_pages');
    const pages: string[] = [];
    let total = 0;
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if ('str' in item) text += item.str + (item.hasEOL ? '\n' : '');
      }
      page.cleanup();
      total += text.length;
      if (total > req.limits.maxTextChars) throw new Failure('too_much_text');
      pages.push(text);
    }
    return { text: pages.join('\n\n'), title: null };
  } finally {
    await pdf.destroy().catch(() => {});
  }
}

async function extractDocx(req: ExtractOp): Promise<Extracted> {
  // Measure what the zip really unpacks to before mammoth (JSZip) inflates anything.
  const check = checkUnpackedSize(req.bytes, req.limits.maxUnpackedBytes);
  if (!check.ok) throw new Failure(check.reason === 'too_big' ? 'too_big_unpacked' : 'corrupt');
  const mammoth = (await import('mammoth')).default;
  try {
    const result = await mammoth.extractRawText({ buffer: Buffer.from(req.bytes.buffer, req.bytes.byteOffset, req.bytes.byteLength) });
    return { text: result.value, title: null };
  } catch {
    throw new Failure('corrupt');
  }
}

function decode(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new Failure('corrupt');
  }
}

async function extract(req: ExtractOp): Promise<Extracted> {
  switch (req.kind) {
    case 'pdf':
      return extractPdf(req);
    case 'docx':
      return extractDocx(req);
    case 'html': {
      // Loaded on first use, like the PDF and DOCX parsers: a worker handling text files never
      // pays for a DOM implementation.
      const { htmlToText } = await import('./html-to-text');
      return htmlToText(decode(req.bytes));
    }
    case 'markdown':
      return { text: markdownToText(decode(req.bytes)), title: null };
    case 'text':
      return { text: decode(req.bytes), title: null };
    default:
      // Audio is transcribed by the speech-to-text provider in the job, never extracted here.
      throw new Failure('corrupt');
  }
}

async function handle(req: ExtractRequest): Promise<ExtractResponse> {
  try {
    const raw = req.op === 'chunk' ? { text: req.text, title: null } : await extract(req);
    if (raw.text.length > req.limits.maxTextChars) return { id: req.id, ok: false, failure: 'too_much_text' };
    const text = req.op === 'chunk' ? raw.text : normalizeExtractedText(raw.text);
    if (text.length === 0) return { id: req.id, ok: false, failure: 'no_text' };
    const title = raw.title ? normalizeExtractedText(raw.title).slice(0, 200) || null : null;
    const chunks = req.chunking ? chunkText(text, req.chunking) : undefined;
    return { id: req.id, ok: true, text, title, chunks };
  } catch (err) {
    if (err instanceof Failure) return { id: req.id, ok: false, failure: err.failure };
    return { id: req.id, ok: false, failure: 'corrupt', detail: err instanceof Error ? err.message.slice(0, 200) : undefined };
  }
}

parentPort!.on('message', (req: ExtractRequest) => {
  void handle(req).then((res) => parentPort!.postMessage(res));
});
parentPort!.postMessage({ ready: true });
