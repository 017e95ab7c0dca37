// Runs in a worker thread with its own heap limit (see extract-pool.ts): the PDF, DOCX and HTML
// parsers work on untrusted bytes here, and so do the whole-text passes (decode, normalize, chunk),
// so a hostile file can exhaust or stall this worker, never the server.
import { parentPort } from 'node:worker_threads';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ExtractRequest, ExtractResponse } from './extract-protocol';
import { checkUnpackedSize } from './zip-inspect';
import { normalizeExtractedText } from './text-normalize';
import { markdownToText } from './markdown-to-text';
import { chunkText } from './chunker';
import { decodeText, detectEncoding } from './text-decode';

/** `reencoded`: see ExtractResponse. */
type Extracted = { text: string; title: string | null; reencoded?: Uint8Array };
type ExtractOp = Extract<ExtractRequest, { op: 'extract' }>;

class Failure extends Error {
  constructor(readonly failure: Exclude<ExtractResponse, { ok: true }>['failure']) {
    super(failure);
  }
}

// Chinese, Japanese and Korean PDFs often use the standard Asian fonts without embedding them
// (STSong-Light with the UniGB-UCS2-H encoding, as ReportLab writes): their text is only readable
// through Adobe's CMaps. pdfjs-dist ships them (and the standard fonts' data), the same pdf.js
// version as unpdf's; in Node pdf.js reads these directories with fs (a path, not a URL).
const pdfjsDir = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
const PDF_RESOURCES = {
  cMapUrl: path.join(pdfjsDir, 'cmaps') + path.sep,
  cMapPacked: true,
  standardFontDataUrl: path.join(pdfjsDir, 'standard_fonts') + path.sep,
};

async function extractPdf(req: ExtractOp): Promise<Extracted> {
  const { getDocumentProxy } = await import('unpdf');
  let pdf;
  try {
    pdf = await getDocumentProxy(new Uint8Array(req.bytes), { isEvalSupported: false, stopAtErrors: false, ...PDF_RESOURCES });
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

/**
 * The text of a text format, in the encoding text-decode.ts finds. `charset` (a URL import's
 * Content-Type) is not kept with the stored file, so when it changed the reading, the text comes
 * back as UTF-8 bytes too, to be stored instead: processing the document again reads the same.
 */
function decode(req: ExtractOp): { text: string; reencoded?: Uint8Array } {
  const html = req.kind === 'html';
  const encoding = detectEncoding(req.bytes, { declared: req.charset, html });
  if (!encoding) throw new Failure('corrupt');
  const text = decodeText(req.bytes, encoding);
  if (!req.charset || detectEncoding(req.bytes, { html }) === encoding) return { text };
  // The BOM makes the stored copy UTF-8 whatever its <meta> says.
  return { text, reencoded: new TextEncoder().encode('\uFEFF' + text) };
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
      const { text, reencoded } = decode(req);
      return { ...htmlToText(text), reencoded };
    }
    case 'markdown': {
      const { text, reencoded } = decode(req);
      return { text: markdownToText(text), title: null, reencoded };
    }
    case 'text':
      return { ...decode(req), title: null };
    default:
      // Audio is transcribed by the speech-to-text provider in the job, never extracted here.
      throw new Failure('corrupt');
  }
}

async function handle(req: ExtractRequest): Promise<ExtractResponse> {
  try {
    const raw: Extracted = req.op === 'chunk' ? { text: req.text, title: null } : await extract(req);
    if (raw.text.length > req.limits.maxTextChars) return { id: req.id, ok: false, failure: 'too_much_text' };
    const text = req.op === 'chunk' ? raw.text : normalizeExtractedText(raw.text);
    if (text.length === 0) return { id: req.id, ok: false, failure: 'no_text' };
    const title = raw.title ? normalizeExtractedText(raw.title).slice(0, 200) || null : null;
    const chunks = req.chunking ? chunkText(text, req.chunking) : undefined;
    return { id: req.id, ok: true, text, title, chunks, ...(raw.reencoded && { reencoded: raw.reencoded }) };
  } catch (err) {
    if (err instanceof Failure) return { id: req.id, ok: false, failure: err.failure };
    return { id: req.id, ok: false, failure: 'corrupt', detail: err instanceof Error ? err.message.slice(0, 200) : undefined };
  }
}

parentPort!.on('message', (req: ExtractRequest) => {
  void handle(req).then((res) => parentPort!.postMessage(res));
});
parentPort!.postMessage({ ready: true });
