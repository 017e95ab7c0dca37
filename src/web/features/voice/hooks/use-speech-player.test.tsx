// The listener's volume and mute are one setting for the whole app in this browser: what is set
// in one tab's controls (Self-paced or Open Mic) is what the other tab shows when it opens, and
// what the page shows after a reload. A stored value that is not a volume gives the spec's 0.7.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { VolumeControls } from '../components/speech-controls';
import { useSpeechPlayer } from './use-speech-player';
import { VOICE_SETTING_KEY } from './voice-level-storage';

/** One tab's controls, as Self-paced and Open Mic Chat both show them. */
function Tab({ use = useSpeechPlayer, Controls = VolumeControls }: { use?: typeof useSpeechPlayer; Controls?: typeof VolumeControls }) {
  const speech = use('p-1');
  return <Controls speech={speech} />;
}

const slider = () => screen.getByRole('slider', { name: 'Volume' }) as HTMLInputElement;
const muteButton = () => screen.getByRole('button', { name: /^(Mute|Unmute)$/ });

afterEach(() => localStorage.clear());

describe('the volume setting', () => {
  it('starts at the default 0.7, unmuted', () => {
    render(<Tab />);
    expect(slider().value).toBe('0.7');
    expect(muteButton()).toHaveAccessibleName('Mute');
  });

  it('set in one tab, the next tab opened shows it', () => {
    const selfPaced = render(<Tab />);
    fireEvent.change(slider(), { target: { value: '0.3' } });
    expect(slider().value).toBe('0.3');
    selfPaced.unmount();

    render(<Tab />);
    expect(slider().value).toBe('0.3');
  });

  it('mute is remembered too', () => {
    const first = render(<Tab />);
    fireEvent.click(muteButton());
    first.unmount();

    render(<Tab />);
    expect(muteButton()).toHaveAccessibleName('Unmute');
    expect(slider().value).toBe('0');
    fireEvent.click(muteButton());
    expect(slider().value).toBe('0.7');
  });

  it('survives a reload (kept in this browser, not in the page)', async () => {
    const first = render(<Tab />);
    fireEvent.change(slider(), { target: { value: '0.4' } });
    first.unmount();

    // A reload: the page's code starts afresh; only the browser's storage is left.
    vi.resetModules();
    const { useSpeechPlayer: reloadedHook } = await import('./use-speech-player');
    const { VolumeControls: reloadedControls } = await import('../components/speech-controls');
    render(<Tab use={reloadedHook} Controls={reloadedControls} />);
    expect(slider().value).toBe('0.4');
  });

  it('a stored volume is used; a stored value that is not a volume gives the default 0.7', () => {
    localStorage.setItem(VOICE_SETTING_KEY, JSON.stringify({ volume: 0.2, muted: false }));
    const valid = render(<Tab />);
    expect(slider().value).toBe('0.2');
    valid.unmount();

    for (const stored of ['garbage', '{"volume":5}', '{"volume":-1}', '{"volume":"0.3"}', 'null']) {
      localStorage.setItem(VOICE_SETTING_KEY, stored);
      const tab = render(<Tab />);
      expect(slider().value, stored).toBe('0.7');
      expect(muteButton(), stored).toHaveAccessibleName('Mute');
      tab.unmount();
    }
  });
});
