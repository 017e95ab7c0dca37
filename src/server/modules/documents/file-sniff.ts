// Decides what an uploaded file is from its bytes, not only its name: the extension says what the
// person meant, the content must agree. PDF and DOCX by their signatures (DOCX: a zip holding
// word/document.xml), text formats by their encoding (text-decode.ts: UTF-8, UTF-16 with a BOM,
// a declared charset, or Western text in Windows-1252) and the absence of binary.
import { messages } from '../../../shared/messages';
import type { DocumentExtension } from '../../../shared/limits';
import { listZipEntries } from './zip-inspect';
import { AUDIO_MIME, type AudioFormat } from '../../ai/speech/audio-file';
import { charsetFromContentType, decodeText, detectEncoding, TextEncodingSniffer } from './text-decode';

export type DocumentKind = 'text' | 'markdown' | 'pdf' | 'docx' | 'html' | AudioKind;
/** Audio uploaded to be transcribed (POST .../documents/audio; sniffed by audio-file.ts). */
export type AudioKind = 'audio-wav' | 'audio-mp3' | 'audio-m4a';

export const AUDIO_KIND: Record<AudioFormat, AudioKind> = { wav: 'audio-wav', mp3: 'audio-mp3', m4a: 'audio-m4a' };
export const FORMAT_OF_AUDIO_KIND: Record<AudioKind, AudioFormat> = { 'audio-wav': 'wav', 'audio-mp3': 'mp3', 'audio-m4a': 'm4a' };

export function isAudioKind(kind: DocumentKind): kind is AudioKind {
  return kind.startsWith('audio-');
}

export const MIME_BY_KIND: Record<DocumentKind, string> = {
  text: 'text/plain',
  markdown: 'text/markdown',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  html: 'text/html',
  'audio-wav': AUDIO_MIME.wav,
  'audio-mp3': AUDIO_MIME.mp3,
  'audio-m4a': AUDIO_MIME.m4a,
};

const LABEL_BY_KIND: Record<DocumentKind, string> = {
  text: 'plain text (.txt)',
  markdown: 'Markdown (.md)',
  pdf: 'PDF',
  docx: 'Word (.docx)',
  html: 'HTML',
  'audio-wav': 'WAV audio',
  'audio-mp3': 'MP3 audio',
  'audio-m4a': 'M4A audio',
};

// Typed by the shared list, so an extension accepted on one side and not the other fails the typecheck.
const KIND_BY_EXTENSION: Record<DocumentExtension, DocumentKind> = {
  '.txt': 'text',
  '.text': 'text',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.pdf': 'pdf',
  '.docx': 'docx',
  '.html': 'html',
  '.htm': 'html',
};

export type SniffResult = { ok: true; kind: DocumentKind; mimeType: string } | { ok: false; error: string };

export function kindFromFileName(fileName: string): DocumentKind | undefined {
  const dot = fileName.lastIndexOf('.');
  return dot >= 0 ? KIND_BY_EXTENSION[fileName.slice(dot).toLowerCase() as DocumentExtension] : undefined;
}

/** Checks a complete file (at most 10 MB) against its declared type. `displayName` goes in messages. */
export function sniffDocument(displayName: string, bytes: Uint8Array): SniffResult {
  const sniffer = new DocumentSniffer(displayName);
  sniffer.push(bytes);
  return sniffer.finish();
}

/** Enough for the PDF signature (first 1024 bytes) and the HTML markers (first 4096). */
const HEAD_BYTES = 4096;
/** The end of a DOCX: its end record (at most 64 KB from the end) and its central directory. */
const ZIP_TAIL_BYTES = 1024 * 1024 + 22 + 0xffff;

/**
 * sniffDocument's judgement over bytes that stream past (an upload on its way to storage), keeping
 * only what it needs: the head, the tail for a DOCX, and a running encoding check for text.
 */
export class DocumentSniffer {
  readonly kind: DocumentKind | undefined;
  private total = 0;
  private head: Uint8Array[] = [];
  private headBytes = 0;
  private tail: Uint8Array[] = [];
  private tailBytes = 0;
  private readonly text: TextEncodingSniffer | undefined;

  constructor(private readonly displayName: string) {
    this.kind = kindFromFileName(displayName);
    const isText = this.kind === 'text' || this.kind === 'markdown' || this.kind === 'html';
    this.text = isText ? new TextEncodingSniffer({ html: this.kind === 'html' }) : undefined;
  }

  push(chunk: Uint8Array): void {
    this.total += chunk.length;
    if (this.headBytes < HEAD_BYTES) {
      const part = chunk.subarray(0, HEAD_BYTES - this.headBytes);
      this.head.push(part);
      this.headBytes += part.length;
    }
    if (this.kind === 'docx') this.keepTail(chunk);
    this.text?.push(chunk);
  }

  private keepTail(chunk: Uint8Array): void {
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    while (this.tail.length > 1 && this.tailBytes - this.tail[0]!.length >= ZIP_TAIL_BYTES) this.tailBytes -= this.tail.shift()!.length;
  }

  finish(): SniffResult {
    const { kind, displayName } = this;
    if (!kind) return { ok: false, error: messages.documents.unsupported(displayName) };
    if (this.total === 0) return { ok: false, error: messages.documents.emptyFile(displayName) };
    if (!this.contentMatches(kind)) return { ok: false, error: messages.documents.contentMismatch(displayName, LABEL_BY_KIND[kind]) };
    return { ok: true, kind, mimeType: MIME_BY_KIND[kind] };
  }

  private contentMatches(kind: DocumentKind): boolean {
    const head = Buffer.concat(this.head);
    switch (kind) {
      case 'pdf':
        return isPdf(head);
      case 'docx': {
        if (!isZip(head)) return false;
        const tail = Buffer.concat(this.tail);
        const entries = listZipEntries(tail, this.total - tail.length);
        return entries !== undefined && entries.some((e) => e.name === 'word/document.xml');
      }
      case 'html': {
        const encoding = this.text!.finish();
        return encoding !== undefined && looksLikeHtml(head, encoding);
      }
      case 'text':
      case 'markdown':
        return this.text!.finish() !== undefined;
      default:
        // Audio is uploaded through its own route and judged by audio-sniffer.ts.
        return false;
    }
  }

}

export interface FetchedKind {
  kind: DocumentKind;
  /** The charset the Content-Type names (canonical), for the extraction to decode with. */
  charset?: string;
}

/** What fetched bytes are, from the response's content type (and charset) and the bytes themselves. */
export function sniffFetched(contentType: string, bytes: Uint8Array): FetchedKind | undefined {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (isPdf(bytes)) return { kind: 'pdf' };
  const charset = charsetFromContentType(contentType);
  const html = type === 'text/html' || type === 'application/xhtml+xml';
  const encoding = detectEncoding(bytes, { declared: charset, html: html || type === '' });
  if (!encoding) return undefined;
  if (html || looksLikeHtml(bytes, encoding)) return { kind: 'html', charset };
  if (type === 'text/markdown') return { kind: 'markdown', charset };
  if (type === 'text/plain' || type === '') return { kind: 'text', charset };
  return undefined;
}

function isPdf(bytes: Uint8Array): boolean {
  // The header may follow a little garbage (the PDF spec allows it within the first 1024 bytes).
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  return head.includes('%PDF-');
}

function isZip(head: Uint8Array): boolean {
  return head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
}

function looksLikeHtml(bytes: Uint8Array, encoding: string): boolean {
  // A cut-off character at the end of the slice decodes to U+FFFD, which the markers ignore.
  const head = decodeText(bytes.subarray(0, 4096), encoding).toLowerCase();
  return /<!doctype html|<html[\s>]|<head[\s>]|<body[\s>]|<article[\s>]|<p[\s>]|<div[\s>]/.test(head);
}
