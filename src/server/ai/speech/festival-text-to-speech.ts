// Optional better offline voice: Debian's festival with festvox-us-slt-hts, when installed
// (text2wave with the HTS voice). Used for the default voice in place of flite when present.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bytesStream, SpeechProviderError, type SpeechSynthesizer } from './speech-types';

const TEXT2WAVE = '/usr/bin/text2wave';
const SLT_VOICE_DIR = '/usr/share/festival/voices/us/cmu_us_slt_arctic_hts';

export function festivalAvailable(): boolean {
  return fs.existsSync(TEXT2WAVE) && fs.existsSync(SLT_VOICE_DIR);
}

export function createFestivalTextToSpeech(): SpeechSynthesizer {
  return {
    provider: 'festival',
    async synthesize(text) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kindred-festival-'));
      try {
        const input = path.join(dir, 'input.txt');
        const output = path.join(dir, 'speech.wav');
        fs.writeFileSync(input, text, 'utf8');
        await new Promise<void>((resolve, reject) =>
          execFile(TEXT2WAVE, ['-eval', '(voice_cmu_us_slt_arctic_hts)', '-o', output, input], { timeout: 30_000 }, (err) =>
            err ? reject(err) : resolve(),
          ),
        );
        return { mime: 'audio/wav', stream: bytesStream(new Uint8Array(fs.readFileSync(output))) };
      } catch (err) {
        throw new SpeechProviderError('failed', `festival failed: ${err instanceof Error ? err.message : String(err)}`);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
