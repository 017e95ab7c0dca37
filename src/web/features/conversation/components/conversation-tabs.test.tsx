// The conversation tabs (spec section 2, issue "Voice, part 3"): Open Mic Chat is the default tab
// when the personality has an agent id; without one it is there (the own hands-free loop) only
// when the server can recognise speech; Self-paced Chat is the default otherwise.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { ada } from '../../../test-support/fake-api';
import { renderApp } from '../../../test-support/render-app';
import { personality, stubConversationApi } from '../test-support/conversation-api-stub';
import { ConversationView } from './conversation-view';

afterEach(() => vi.unstubAllGlobals());

const capabilities = (sttAvailable: boolean) => ({
  stt: sttAvailable ? { available: true, engine: 'openai', approximate: false } : { available: false, engine: null, approximate: false, howToConfigure: 'Set OPENAI_API_KEY' },
  tts: { default: 'embedded', openai: false, elevenlabs: false },
  cloning: { available: false },
  limits: { maxRecordingSeconds: 60, maxAudioBytes: 10 * 1024 * 1024 },
  openMic: { endOfTurnMs: 900, agents: true },
});

async function render(agentId: string | null, sttAvailable: boolean) {
  const api = stubConversationApi({
    user: ada,
    override: (call) => (call.method === 'GET' && call.path === '/api/voice/capabilities' ? { status: 200, body: capabilities(sttAvailable) } : undefined),
  });
  renderApp(<ConversationView personality={{ ...personality, agentId }} onBack={() => {}} />);
  await waitFor(() => expect(api.callsTo('GET', '/api/voice/capabilities')).toHaveLength(1));
  return api;
}

const tabNames = () => screen.getAllByRole('tab').map((t) => t.textContent);

describe('conversation tabs', () => {
  it('with an agent id: Open Mic Chat first and selected', async () => {
    await render('agent_123', false);
    expect(await screen.findByRole('tab', { name: 'Open Mic Chat' })).toHaveAttribute('aria-selected', 'true');
    expect(tabNames()).toEqual(['Open Mic Chat', 'Self-paced Chat', 'Text Chat']);
  });

  it('without one but with speech recognition: the tab runs the own loop, Self-paced Chat is the default', async () => {
    await render(null, true);
    expect(await screen.findByRole('tab', { name: 'Open Mic Chat' })).toHaveAttribute('aria-selected', 'false');
    expect(screen.getByRole('tab', { name: 'Self-paced Chat' })).toHaveAttribute('aria-selected', 'true');
  });

  it('without an agent id or speech recognition: no Open Mic Chat tab', async () => {
    await render(null, false);
    await screen.findByRole('tab', { name: 'Self-paced Chat' });
    expect(tabNames()).toEqual(['Self-paced Chat', 'Text Chat']);
  });
});
