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

  // Run in a child process: before the queue, this corrupted the worker or crashed the whole process
  // (a V8 fatal in the worker thread), which would have taken the test runner with it.
  it('speaks 8 long texts requested at once, each a whole WAV, and the process lives on', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kindred-flite-load-'));
    const script = path.join(dir, 'load.mts');
    const module = path.resolve(import.meta.dirname, 'flite-text-to-speech.ts');
    fs.writeFileSync(
      script,
      [
        `import { fliteSynthesize } from ${JSON.stringify(module)};`,
        `const text = 'Hello there friend, how are you today? '.repeat(200).slice(0, 5000);`,
        `const results = await Promise.allSettled(Array.from({ length: 8 }, () => fliteSynthesize(text)));`,
        `console.log(JSON.stringify(results.map((r) => r.status === 'fulfilled'`,
        `  ? { riff: Buffer.from(r.value.subarray(0, 4)).toString('latin1'), bytes: r.value.length, data: new DataView(r.value.buffer, r.value.byteOffset).getUint32(40, true) }`,
        `  : { error: String(r.reason) })));`,
      ].join('\n'),
    );
    const run = spawnSync(process.execPath, ['--import', 'tsx', script], { cwd: process.cwd(), timeout: 120_000, encoding: 'utf8' });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(run.signal).toBeNull();
    expect(run.status).toBe(0);
    const results = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '[]') as { riff?: string; bytes?: number; data?: number; error?: string }[];
    expect(results).toHaveLength(8);
    for (const r of results) {
      expect(r.error).toBeUndefined();
      expect(r.riff).toBe('RIFF');
      expect(r.data).toBe(r.bytes! - 44);
      // About five minutes of speech at 8 kHz: a whole text, not a piece of it.
      expect(r.data).toBeGreaterThan(4_000_000);
    }
  }, 150_000);
});
