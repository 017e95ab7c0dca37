// getUserMedia failures as the spec's Microphone messages (section 8), with the denied message
// tailored to Brave (its Shields block the prompt) and to phones (settings live elsewhere).
import { messages } from '../../../../shared/messages';

export interface BrowserHints {
  brave: boolean;
  mobile: boolean;
}

export function browserHints(nav: Navigator = navigator): BrowserHints {
  const brave = Boolean((nav as Navigator & { brave?: unknown }).brave);
  const mobile = /Android|iPhone|iPad|iPod|Mobile/i.test(nav.userAgent);
  return { brave, mobile };
}

export function microphoneSupported(nav: Navigator = navigator): boolean {
  return Boolean(nav.mediaDevices?.getUserMedia) && typeof AudioContext !== 'undefined';
}

/** The message for a failed getUserMedia, by the DOMException's name. */
export function microphoneErrorMessage(err: unknown, hints: BrowserHints): string {
  const name = err instanceof Error || (typeof err === 'object' && err !== null && 'name' in err) ? String((err as { name: unknown }).name) : '';
  switch (name) {
    case 'NotAllowedError':
    case 'PermissionDeniedError':
    case 'SecurityError':
      return hints.brave ? messages.voice.micDeniedBrave : hints.mobile ? messages.voice.micDeniedMobile : messages.voice.micDenied;
    case 'NotFoundError':
    case 'DevicesNotFoundError':
      return messages.voice.micNotFound;
    case 'NotReadableError':
    case 'TrackStartError':
    case 'AbortError':
      return messages.voice.micInUse;
    case 'OverconstrainedError':
    case 'ConstraintNotSatisfiedError':
      return messages.voice.micConstraints;
    case 'TypeError':
      return messages.voice.micUnsupported;
    default:
      return messages.voice.startRecordingFailed;
  }
}
