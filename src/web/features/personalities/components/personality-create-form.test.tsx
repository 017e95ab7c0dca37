import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import { PersonalitiesDashboard } from './personalities-dashboard';
import { ada, renderWithApp, stubApi } from '../test-support/personalities-api-stub';

afterEach(() => vi.unstubAllGlobals());

async function openCreateForm() {
  const user = userEvent.setup();
  renderWithApp(<PersonalitiesDashboard renderConversation={() => null} />);
  await user.click(await screen.findByRole('button', { name: 'Add Personality' }));
  const form = await screen.findByRole('region', { name: 'New personality' });
  return { user, form };
}

async function chooseProvider(user: ReturnType<typeof userEvent.setup>, form: HTMLElement, label: string) {
  await user.click(within(form).getByRole('combobox', { name: 'Voice provider' }));
  await user.click(await screen.findByRole('option', { name: label }));
}

const posts = (calls: { method: string; path: string; body: unknown }[]) =>
  calls.filter((c) => c.method === 'POST' && c.path === '/api/personalities');

describe('create personality form', () => {
  it('requires a name and sends nothing without one', async () => {
    const api = stubApi({ viewer: ada });
    const { user, form } = await openCreateForm();
    await user.type(within(form).getByLabelText('Description'), 'Only a description');
    await user.click(within(form).getByRole('button', { name: 'Create Personality' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Please enter a name for the personality');
    expect(within(form).getByLabelText('Name')).toHaveFocus();
    await user.type(within(form).getByLabelText('Name'), '   ');
    await user.click(within(form).getByRole('button', { name: 'Create Personality' }));
    expect(posts(api.calls)).toHaveLength(0);
  });

  it('treats a name of invisible characters only as no name; a name of emoji joined by ZWJ is a name', async () => {
    const api = stubApi({ viewer: ada });
    const { user, form } = await openCreateForm();
    const name = within(form).getByLabelText('Name');
    for (const invisible of ['\u200B', '\u200D\u200F', '\u0301']) {
      await user.clear(name);
      await user.type(name, invisible);
      await user.click(within(form).getByRole('button', { name: 'Create Personality' }));
      expect(await within(form).findByRole('alert')).toHaveTextContent('Please enter a name for the personality');
      expect(name).toHaveFocus();
    }
    expect(posts(api.calls)).toHaveLength(0);
    await user.clear(name);
    await user.type(name, '👩‍👩‍👧');
    // A visible name clears the message as soon as it is typed.
    expect(within(form).queryByRole('alert')).toBeNull();
    await user.click(within(form).getByRole('button', { name: 'Create Personality' }));
    expect(await screen.findByText('Personality created successfully')).toBeInTheDocument();
    expect(posts(api.calls)).toHaveLength(1);
    expect((posts(api.calls)[0].body as { name: string }).name).toBe('👩‍👩‍👧');
  });

  it('starts on the default voice with neither voice-specific field', async () => {
    stubApi({ viewer: ada });
    const { form } = await openCreateForm();
    expect(within(form).getByRole('combobox', { name: 'Voice provider' })).toHaveTextContent('Default voice');
    expect(within(form).queryByLabelText('Enable phonetic transcription')).toBeNull();
    expect(within(form).queryByLabelText('Agent ID')).toBeNull();
  });

  it('openai selects alloy and offers phonetic transcription; the toast confirms creation', async () => {
    const api = stubApi({ viewer: ada });
    const { user, form } = await openCreateForm();
    await user.type(within(form).getByLabelText('Name'), '  Ada Lovelace ');
    await chooseProvider(user, form, 'OpenAI');
    expect(within(form).getByRole('combobox', { name: 'OpenAI voice' })).toHaveTextContent('Alloy (neutral)');
    expect(within(form).queryByLabelText('Agent ID')).toBeNull();
    await user.click(within(form).getByRole('checkbox', { name: 'Enable phonetic transcription' }));
    await user.type(within(form).getByLabelText('Greeting'), 'Good day! Shall we talk about engines?');
    await user.click(within(form).getByRole('button', { name: 'Create Personality' }));

    expect(await screen.findByText('Personality created successfully')).toBeInTheDocument();
    expect(posts(api.calls)[0].body).toEqual({
      name: 'Ada Lovelace',
      description: '',
      behaviorInstructions: '',
      greeting: 'Good day! Shall we talk about engines?',
      voiceProvider: 'openai',
      voice: 'alloy',
      agentId: null,
      enablePhoneticTranscription: true,
    });
    // The form closes and the new personality is in the refetched list.
    await waitFor(() => expect(screen.queryByRole('region', { name: 'New personality' })).toBeNull());
    expect(await screen.findByRole('article', { name: 'Ada Lovelace' })).toBeInTheDocument();
  });

  it('elevenlabs selects the female preset and asks for an agent id', async () => {
    const api = stubApi({ viewer: ada });
    const { user, form } = await openCreateForm();
    await user.type(within(form).getByLabelText('Name'), 'Narrator');
    await chooseProvider(user, form, 'ElevenLabs');
    expect(within(form).getByRole('combobox', { name: 'ElevenLabs voice' })).toHaveTextContent('Female');
    expect(within(form).queryByLabelText('Enable phonetic transcription')).toBeNull();
    await user.type(within(form).getByLabelText('Agent ID'), 'agent_123');
    await user.click(within(form).getByRole('button', { name: 'Create Personality' }));

    await screen.findByText('Personality created successfully');
    expect(posts(api.calls)[0].body).toMatchObject({ voiceProvider: 'elevenlabs', voice: 'female', agentId: 'agent_123' });
    expect(posts(api.calls)[0].body).not.toHaveProperty('enablePhoneticTranscription');
  });

  it('switching back from openai to default sends no voice', async () => {
    const api = stubApi({ viewer: ada });
    const { user, form } = await openCreateForm();
    await user.type(within(form).getByLabelText('Name'), 'Plain');
    await chooseProvider(user, form, 'OpenAI');
    await chooseProvider(user, form, 'Default voice');
    expect(within(form).queryByRole('combobox', { name: 'OpenAI voice' })).toBeNull();
    await user.click(within(form).getByRole('button', { name: 'Create Personality' }));
    await screen.findByText('Personality created successfully');
    expect(posts(api.calls)[0].body).toMatchObject({ voiceProvider: 'default', voice: null });
  });

  it('shows the failure toast with the server message and keeps the form', async () => {
    stubApi({
      viewer: ada,
      override: (c) =>
        c.method === 'POST'
          ? { status: 400, body: { error: { code: 'BAD_REQUEST', message: 'Name must be at most 200 characters' } } }
          : undefined,
    });
    const { user, form } = await openCreateForm();
    await user.type(within(form).getByLabelText('Name'), 'Too long, says the server');
    await user.click(within(form).getByRole('button', { name: 'Create Personality' }));
    expect(await screen.findByText('Failed to create personality')).toBeInTheDocument();
    expect(screen.getByText('Name must be at most 200 characters')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'New personality' })).toBeInTheDocument();
    expect(within(form).getByLabelText('Name')).toHaveValue('Too long, says the server');
  });
});
