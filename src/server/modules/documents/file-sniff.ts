// Decides what an uploaded file is from its bytes, not only its name: the extension says what the
// person meant, the content must agree. PDF and DOCX by their signatures (DOCX: a zip holding
// word/document.xml), text formats by strict UTF-8 validity and the absence of NUL bytes.
import { messages } from '../../../shared/messages';
import type { DocumentExtension } from '../../../shared/limits';
import { listZipEntries } from './zip-inspect';
import { AUDIO_MIME, sniffAudio, type AudioFormat } from '../../ai/speech/audio-file';

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
  const kind = kindFromFileName(displayName);
  if (!kind) return { ok: false, error: messages.documents.unsupported(displayName) };
  if (bytes.length === 0) return { ok: false, error: messages.documents.emptyFile(displayName) };
  const matches = contentMatches(kind, bytes);
  if (!matches) return { ok: false, error: messages.documents.contentMismatch(displayName, LABEL_BY_KIND[kind]) };
  return { ok: true, kind, mimeType: MIME_BY_KIND[kind] };
}

/** What fetched bytes are, from the response's content type and the bytes themselves. */
export function sniffFetched(contentType: string, bytes: Uint8Array): DocumentKind | undefined {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (isPdf(bytes)) return 'pdf';
  if (!isUtf8Text(bytes)) return undefined;
  if (type === 'text/html' || type === 'application/xhtml+xml' || looksLikeHtml(bytes)) return 'html';
  if (type === 'text/markdown') return 'markdown';
  if (type === 'text/plain' || type === '') return 'text';
  return undefined;
}

function contentMatches(kind: DocumentKind, bytes: Uint8Array): boolean {
  switch (kind) {
    case 'pdf':
      return isPdf(bytes);
    case 'docx':
      return isDocx(bytes);
    case 'html':
      return isUtf8Text(bytes) && looksLikeHtml(bytes);
    case 'text':
    case 'markdown':
      return isUtf8Text(bytes);
    default: {
      const audio = sniffAudio(bytes);
      return audio.ok && AUDIO_KIND[audio.format] === kind;
    }
  }
}

function isPdf(bytes: Uint8Array): boolean {
  // The header may follow a little garbage (the PDF spec allows it within the first 1024 bytes).
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  return head.includes('%PDF-');
}

function isDocx(bytes: Uint8Array): boolean {
  if (bytes.length < 4 || bytes[0] !== 0x50 || bytes[1] !== 0x4b || bytes[2] !== 0x03 || bytes[3] !== 0x04) return false;
  const entries = listZipEntries(bytes);
  return entries !== undefined && entries.some((e) => e.name === 'word/document.xml');
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function isUtf8Text(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    utf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

function looksLikeHtml(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.subarray(0, 4096)).toString('utf8').toLowerCase();
  return /<!doctype html|<html[\s>]|<head[\s>]|<body[\s>]|<article[\s>]|<p[\s>]|<div[\s>]/.test(head);
}
