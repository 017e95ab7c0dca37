import { describe, expect, it } from 'vitest';
import { messages } from '../../../../shared/messages';
import { microphoneErrorMessage } from './microphone-errors';

const desktop = { brave: false, mobile: false };
const err = (name: string) => new DOMException('x', name);

describe('microphone errors (spec section 8)', () => {
  it('tailors the denied message to Brave and to phones', () => {
    expect(microphoneErrorMessage(err('NotAllowedError'), desktop)).toBe(messages.voice.micDenied);
    expect(microphoneErrorMessage(err('NotAllowedError'), { brave: true, mobile: false })).toBe(messages.voice.micDeniedBrave);
    expect(microphoneErrorMessage(err('NotAllowedError'), { brave: false, mobile: true })).toBe(messages.voice.micDeniedMobile);
  });

  it('names a missing, busy or unsuitable microphone, and an unsupported browser', () => {
    expect(microphoneErrorMessage(err('NotFoundError'), desktop)).toBe(messages.voice.micNotFound);
    expect(microphoneErrorMessage(err('NotReadableError'), desktop)).toBe(messages.voice.micInUse);
    expect(microphoneErrorMessage(err('OverconstrainedError'), desktop)).toBe(messages.voice.micConstraints);
    expect(microphoneErrorMessage(new TypeError('no getUserMedia'), desktop)).toBe(messages.voice.micUnsupported);
    expect(microphoneErrorMessage(new Error('boom'), desktop)).toBe(messages.voice.startRecordingFailed);
  });
});
