// Cloning a voice from the Documents tab: the browser's checks (type, 11MB, consent) with the
// spec's words, the multipart request, and the spec's two failure toasts.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '../../../../shared/messages';
import { ada, type FakeAnswer, type FakeCall } from '../../../test-support/fake-api';
import { renderApp } from '../../../test-support/render-app';
import { personalityId, stubDocumentsApi } from '../test-support/documents-api-stub';
import { DocumentsTab } from './documents-tab';

afterEach(() => vi.unstubAllGlobals());

const MB = 1024 * 1024;

function sample(name = 'voice.mp3', size = 2048) {
  const f = new File([new Uint8Array(Math.min(size, 4096))], name, { type: 'audio/mpeg' });
  if (size > 4096) Object.defineProperty(f, 'size', { value: size });
  return f;
}

function setup(options: { cloning?: boolean; answer?: FakeAnswer } = {}) {
  const api = stubDocumentsApi({
    user: ada,
    override: ({ method, path }: FakeCall) => {
      if (method === 'GET' && path === '/api/voice/capabilities') {
        return {
          status: 200,
          body: {
            stt: { available: true, engine: 'openai', approximate: false },
            tts: { default: 'embedded', openai: false, elevenlabs: true },
            cloning: options.cloning === false ? { available: false, howToConfigure: messages.voice.cloneNotConfigured } : { available: true },
            limits: { maxRecordingSeconds: 60, maxAudioBytes: 10 * MB },
          },
        };
      }
      if (method === 'POST' && path === `/api/personalities/${personalityId}/voice/clone`) {
        return options.answer ?? { status: 201, body: { personality: { id: personalityId, customVoiceId: 'voice-123' } } };
      }
      return undefined;
    },
  });
  renderApp(<DocumentsTab personalityId={personalityId} />);
  const form = within(screen.getByRole('form', { name: 'Clone this voice' }));
  return { api, form, user: userEvent.setup({ applyAccept: false }) };
}

const cloneCalls = (api: ReturnType<typeof setup>['api']) => api.fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/voice/clone'));

describe('clone this voice', () => {
  it('needs an audio sample under 11MB and the consent before anything is sent', async () => {
    const { api, form, user } = setup();
    expect(form.getByText(messages.voice.cloneHint)).toBeInTheDocument();
    await user.click(form.getByRole('button', { name: 'Create Voice Clone' }));
    expect(form.getByRole('alert')).toHaveTextContent(messages.voice.cloneNoFile);
    await user.upload(form.getByLabelText('Voice sample'), new File(['x'], 'notes.txt', { type: 'text/plain' }));
    expect(form.getByRole('alert')).toHaveTextContent(messages.documents.audioType);
    await user.upload(form.getByLabelText('Voice sample'), sample('long.mp3', 12 * MB));
    expect(form.getByRole('alert')).toHaveTextContent('Audio file must be smaller than 11MB for ElevenLabs voice cloning');
    await user.upload(form.getByLabelText('Voice sample'), sample());
    await user.click(form.getByRole('button', { name: 'Create Voice Clone' }));
    expect(form.getByRole('alert')).toHaveTextContent(messages.voice.cloneConsentRequired);
    expect(cloneCalls(api)).toHaveLength(0);
  });

  it('sends the sample, the name and the consent; says the voice is cloned', async () => {
    const { api, form, user } = setup();
    await user.upload(form.getByLabelText('Voice sample'), sample());
    await user.type(form.getByLabelText('Voice name (optional)'), 'Grandad Angus');
    await user.click(form.getByLabelText(messages.voice.cloneConsentText));
    await user.click(form.getByRole('button', { name: 'Create Voice Clone' }));
    expect(await screen.findByText(messages.voice.cloned('Grandad Angus'))).toBeInTheDocument();
    const [, init] = cloneCalls(api)[0]!;
    const body = (init as RequestInit).body as FormData;
    expect(body.get('consent')).toBe('true');
    expect(body.get('name')).toBe('Grandad Angus');
    expect((body.get('sample') as File).name).toBe('voice.mp3');
    await waitFor(() => expect(form.getByLabelText(messages.voice.cloneConsentText)).not.toBeChecked());
  });

  it('"ElevenLabs Subscription Required" when the plan has no instant cloning', async () => {
    const { form, user } = setup({
      answer: { status: 402, body: { error: { code: 'CLONE_SUBSCRIPTION', message: messages.voice.cloneSubscription, details: { reason: 'no ivc' } } } },
    });
    await user.upload(form.getByLabelText('Voice sample'), sample());
    await user.click(form.getByLabelText(messages.voice.cloneConsentText));
    await user.click(form.getByRole('button', { name: 'Create Voice Clone' }));
    expect(await screen.findByText(messages.voice.cloneSubscription)).toBeInTheDocument();
    expect(form.getByRole('alert')).toHaveTextContent(messages.voice.cloneSubscriptionHint);
    // Said once (in the form's alert): a toast too would make "find this message" ambiguous.
    expect(screen.getAllByText(messages.voice.cloneSubscription)).toHaveLength(1);
    expect(screen.getAllByText(messages.voice.cloneSubscriptionHint)).toHaveLength(1);
  });

  it('"Voice Training Failed" with the reason', async () => {
    const { form, user } = setup({
      answer: { status: 502, body: { error: { code: 'CLONE_FAILED', message: messages.voice.cloneFailedReason('Sample too noisy'), details: { reason: 'Sample too noisy' } } } },
    });
    await user.upload(form.getByLabelText('Voice sample'), sample());
    await user.click(form.getByLabelText(messages.voice.cloneConsentText));
    await user.click(form.getByRole('button', { name: 'Create Voice Clone' }));
    expect(await screen.findByText(messages.voice.cloneFailed, { exact: true })).toBeInTheDocument();
    expect(form.getByRole('alert')).toHaveTextContent(`${messages.voice.cloneFailed}Sample too noisy`);
    expect(screen.getAllByText(messages.voice.cloneFailed, { exact: false })).toHaveLength(1);
  });

  it('without an ElevenLabs key the form says how to configure it and cannot be used', async () => {
    const { form } = setup({ cloning: false });
    expect(await form.findByText(messages.voice.cloneNotConfigured)).toBeInTheDocument();
    expect(form.getByRole('button', { name: 'Create Voice Clone' })).toBeDisabled();
  });
});
