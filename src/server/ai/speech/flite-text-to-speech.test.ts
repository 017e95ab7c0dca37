// The embedded voice's worker: speaks, and never holds the process open once its work is done
// (benchmarks and scripts that synthesized a sentence must still exit by themselves).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fliteSynthesize, fliteWasmPath } from './flite-text-to-speech';

describe.skipIf(!fliteWasmPath())('flite text to speech', () => {
  it('synthesizes a WAV', async () => {
    const wav = await fliteSynthesize('Hello there.');
    expect(Buffer.from(wav.subarray(0, 4)).toString('latin1')).toBe('RIFF');
    expect(wav.length).toBeGreaterThan(1000);
  });

  it('lets a process that used it exit on its own', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kindred-flite-exit-'));
    const script = path.join(dir, 'speak.mts');
    const module = path.resolve(import.meta.dirname, 'flite-text-to-speech.ts');
    fs.writeFileSync(script, `import { fliteSynthesize } from ${JSON.stringify(module)};\nawait fliteSynthesize('Hello there.');\nconsole.log('spoke');\n`);
    const run = spawnSync(process.execPath, ['--import', 'tsx', script], { cwd: process.cwd(), timeout: 20_000, encoding: 'utf8' });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(run.stdout).toContain('spoke');
    // Killed by the timeout (status null) when the worker kept it alive.
    expect(run.status).toBe(0);
  }, 30_000);
});
