// Approximate offline speech-to-text with pocketsphinx, when the machine has it (Debian 12:
// `pocketsphinx` + `pocketsphinx-en-us`, whose CLI is pocketsphinx_continuous; pocketsphinx 5.x's
// `pocketsphinx single FILE` prints JSON and is used when that is what is installed). The WAV is
// written under a random name in a private scratch folder: nothing from the client names a path.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { toMono16k } from './audio-file';
import { SpeechProviderError, type SpeechToText } from './speech-types';

const CONTINUOUS = '/usr/bin/pocketsphinx_continuous';
const V5_CANDIDATES = ['/usr/bin/pocketsphinx', '/usr/local/bin/pocketsphinx'];
const MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';

type Cli = { kind: 'continuous'; bin: string } | { kind: 'v5'; bin: string };

export function findPocketsphinx(): Cli | undefined {
  if (fs.existsSync(CONTINUOUS) && fs.existsSync(path.join(MODEL_DIR, 'en-us'))) return { kind: 'continuous', bin: CONTINUOUS };
  const v5 = V5_CANDIDATES.find((p) => fs.existsSync(p));
  return v5 ? { kind: 'v5', bin: v5 } : undefined;
}

function run(bin: string, args: string[], timeoutMs: number, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(bin, args, { timeout: timeoutMs, maxBuffer: 1024 * 1024, signal }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
  });
}

/** At most this many recognisers at once (each loads the model: ~1-3 s of CPU). */
const MAX_PARALLEL = 2;
let running = 0;
const waiting: (() => void)[] = [];

async function withSlot<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= MAX_PARALLEL) await new Promise<void>((r) => waiting.push(r));
  running++;
  try {
    return await fn();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/**
 * The words pocketsphinx heard in a 16 kHz mono WAV, each with its posterior confidence (0-1), for
 * the approximate pronunciation assessment. pocketsphinx 5 prints no word confidences: every
 * word it heard then counts as fully confident.
 */
export function recogniseWords(cli: Cli, wav: Uint8Array, signal?: AbortSignal): Promise<{ word: string; confidence: number }[]> {
  return withSlot(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kindred-stt-'));
    const file = path.join(dir, 'speech.wav');
    try {
      fs.writeFileSync(file, wav);
      if (cli.kind === 'continuous') {
        const out = await run(cli.bin, ['-infile', file, '-time', 'yes', '-logfn', '/dev/null'], 180_000, signal);
        // Lines "word start end confidence"; fillers (<s>, </s>, <sil>, [NOISE]) are not words.
        return out
          .split('\n')
          .map((l) => l.trim().split(/\s+/))
          .filter((f) => f.length === 4 && Number.isFinite(Number(f[3])) && !/^[<[]/.test(f[0]!))
          .map((f) => ({ word: f[0]!.replace(/\(\d+\)$/, ''), confidence: Number(f[3]) }));
      }
      const out = await run(cli.bin, ['single', file], 180_000, signal);
      const text = out
        .split('\n')
        .filter((l) => l.trim().startsWith('{'))
        .map((l) => (JSON.parse(l) as { t?: string }).t ?? '')
        .join(' ');
      return text.split(/\s+/).filter(Boolean).map((word) => ({ word, confidence: 1 }));
    } catch (err) {
      throw new SpeechProviderError('failed', `offline recognition failed: ${err instanceof Error ? err.message.slice(0, 200) : String(err)}`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}

export function createPocketsphinxSpeechToText(cli: Cli): SpeechToText {
  const recognise = (wav: Uint8Array, signal?: AbortSignal): Promise<string> =>
      withSlot(async () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kindred-stt-'));
        const file = path.join(dir, 'speech.wav');
        try {
          fs.writeFileSync(file, wav);
          if (cli.kind === 'continuous') {
            const out = await run(cli.bin, ['-infile', file, '-logfn', '/dev/null'], 180_000, signal);
            return out
              .split('\n')
              .map((l) => l.trim())
              .filter(Boolean)
              .join(' ')
              .trim();
          }
          const out = await run(cli.bin, ['single', file], 180_000, signal);
          const texts = out
            .split('\n')
            .filter((l) => l.trim().startsWith('{'))
            .map((l) => (JSON.parse(l) as { t?: string }).t ?? '');
          return texts.join(' ').trim();
        } catch (err) {
          throw new SpeechProviderError('failed', `offline recognition failed: ${err instanceof Error ? err.message.slice(0, 200) : String(err)}`);
        } finally {
          fs.rmSync(dir, { recursive: true, force: true });
        }
      });
  return {
    engine: 'pocketsphinx',
    approximate: true,
    transcribe: recognise,
    // MP3 and M4A need a decoder this server does not ship: uploads of them are refused up front.
    fileFormats: ['wav'],
    async transcribeFile(piece, signal) {
      const wav = piece.format === 'wav' ? toMono16k(piece.bytes) : undefined;
      if (!wav) throw new SpeechProviderError('failed', 'offline recognition reads 16-bit PCM WAV files only');
      return recognise(wav, signal);
    },
  };
}
