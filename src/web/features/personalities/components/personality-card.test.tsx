import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Personality } from '../../../../shared/schemas/personality';
import { PersonalitiesDashboard } from './personalities-dashboard';
import { ada, makePersonality, renderWithApp, stubApi, type Viewer } from '../test-support/personalities-api-stub';

afterEach(() => vi.unstubAllGlobals());

function renderLibrary(viewer: Viewer, personalities: Personality[], onOpenDocuments = vi.fn()) {
  const api = stubApi({ viewer, personalities });
  renderWithApp(<PersonalitiesDashboard renderConversation={() => null} onOpenDocuments={onOpenDocuments} />);
  return { api, onOpenDocuments, user: userEvent.setup() };
}

const card = (name: string) => screen.findByRole('article', { name });

describe('personality card', () => {
  it('shows sharing and voice badges, and who created it', async () => {
    const mine = makePersonality({
      name: 'Mine',
      voiceProvider: 'openai',
      voice: 'alloy',
      voiceSettings: { provider: 'openai', openai_voice: 'alloy' },
    });
    const publicOther = makePersonality({
      name: 'Public other',
      sharingType: 'public',
      isPublic: true,
      isOwner: false,
      voiceProvider: 'elevenlabs',
      voice: 'female',
      voiceSettings: { provider: 'elevenlabs', voice_type: 'preset', type: 'female' },
    });
    const sharedOther = makePersonality({ name: 'Shared other', sharingType: 'shared', isOwner: false });
    // An old row with no sharing_type: the spec's fallback makes is_public decide.
    const legacy = makePersonality({ name: 'Legacy', sharingType: null as never, isPublic: true, isOwner: false });
    const { onOpenDocuments, user } = renderLibrary(ada, [mine, publicOther, sharedOther, legacy]);

    const mineCard = within(await card('Mine'));
    expect(mineCard.getByTestId('sharing-badge')).toHaveTextContent('Private');
    expect(mineCard.getByTestId('voice-badge')).toHaveTextContent('OpenAI · alloy');
    expect(mineCard.queryByText('Created by another user')).toBeNull();
    expect(mineCard.queryByText('View Only')).toBeNull();
    await user.click(mineCard.getByRole('button', { name: 'Docs for Mine' }));
    expect(onOpenDocuments).toHaveBeenCalledWith(expect.objectContaining({ id: mine.id }));

    const publicCard = within(await card('Public other'));
    expect(publicCard.getByTestId('sharing-badge')).toHaveTextContent('Public');
    expect(publicCard.getByTestId('voice-badge')).toHaveTextContent('ElevenLabs · Female');
    expect(publicCard.getByText('Created by another user')).toBeInTheDocument();
    expect(publicCard.getByText('View Only')).toBeInTheDocument();
    expect(publicCard.queryByRole('button', { name: /^Docs/ })).toBeNull();
    expect(publicCard.queryByRole('button', { name: /^Edit/ })).toBeNull();
    expect(publicCard.queryByRole('button', { name: /^Delete/ })).toBeNull();

    const sharedCard = within(await card('Shared other'));
    expect(sharedCard.getByTestId('sharing-badge')).toHaveTextContent('Shared');
    expect(sharedCard.getByTestId('voice-badge')).toHaveTextContent('Default voice');
    expect(sharedCard.getByText('Created by another user')).toBeInTheDocument();

    expect(within(await card('Legacy')).getByTestId('sharing-badge')).toHaveTextContent('Public');
  });

  it('shows neither Docs nor View Only to anonymous visitors', async () => {
    renderLibrary(null, [makePersonality({ name: 'Famous', sharingType: 'public', isPublic: true, isOwner: false })]);
    const famous = within(await card('Famous'));
    expect(famous.getByText('Created by another user')).toBeInTheDocument();
    expect(famous.queryByText('View Only')).toBeNull();
    expect(famous.queryByRole('button', { name: /^Docs/ })).toBeNull();
    expect(famous.getByRole('button', { name: 'Start Chat with Famous' })).toBeInTheDocument();
  });

  it('renders markup and javascript: links in descriptions as text; https becomes a safe link', async () => {
    const description = '<script>alert(1)</script> click javascript:alert(1) or visit https://example.com';
    renderLibrary(ada, [makePersonality({ name: 'Risky', description })]);
    const risky = await card('Risky');
    expect(risky.querySelector('script')).toBeNull();
    expect(risky).toHaveTextContent('<script>alert(1)</script> click javascript:alert(1) or visit');
    expect(document.querySelector('a[href^="javascript:"]')).toBeNull();
    const link = within(risky).getByRole('link', { name: 'https://example.com' });
    expect(link).toHaveAttribute('href', 'https://example.com/');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
  });

  it('edits inline; a blank name sends no request and keeps the form open', async () => {
    const p = makePersonality({ name: 'Old name', description: 'Old description' });
    const { api, user } = renderLibrary(ada, [p]);
    await user.click(within(await card('Old name')).getByRole('button', { name: 'Edit Old name' }));
    const form = await screen.findByRole('form', { name: 'Edit Old name' });
    const name = within(form).getByLabelText('Name');
    expect(name).toHaveValue('Old name');
    expect(within(form).getByLabelText('Description')).toHaveValue('Old description');

    await user.clear(name);
    await user.type(name, '   ');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(api.calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);
    expect(screen.getByRole('form', { name: 'Edit Old name' })).toBeInTheDocument();

    await user.clear(name);
    await user.type(name, 'New name');
    await user.click(within(form).getByRole('combobox', { name: 'Voice provider' }));
    await user.click(await screen.findByRole('option', { name: 'ElevenLabs' }));
    await user.type(within(form).getByLabelText('Agent ID'), 'agent_9');
    await user.click(within(form).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Personality updated successfully')).toBeInTheDocument();
    const patches = api.calls.filter((c) => c.method === 'PATCH');
    expect(patches).toHaveLength(1);
    expect(patches[0].path).toBe(`/api/personalities/${p.id}`);
    // Only what the form changed (the voice settings together), with those fields' values as it opened them.
    expect(patches[0].body).toEqual({
      name: 'New name',
      voiceProvider: 'elevenlabs',
      voice: 'female',
      agentId: 'agent_9',
      expected: { name: 'Old name', voiceProvider: 'default', voice: null, agentId: '', enablePhoneticTranscription: false },
    });
    expect(await card('New name')).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: /^Edit/ })).toBeNull();
  });

  it('edits the greeting inline (an imported card\'s first message)', async () => {
    const p = makePersonality({ name: 'Mirella', greeting: 'Ahoy!' });
    const { api, user } = renderLibrary(ada, [p]);
    await user.click(within(await card('Mirella')).getByRole('button', { name: 'Edit Mirella' }));
    const form = await screen.findByRole('form', { name: 'Edit Mirella' });
    const greeting = within(form).getByLabelText('Greeting');
    expect(greeting).toHaveValue('Ahoy!');
    await user.clear(greeting);
    await user.type(greeting, 'Welcome aboard the Gull.');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Personality updated successfully')).toBeInTheDocument();
    const patches = api.calls.filter((c) => c.method === 'PATCH');
    expect(patches).toHaveLength(1);
    expect(patches[0].body).toEqual({ greeting: 'Welcome aboard the Gull.', expected: { greeting: 'Ahoy!' } });
  });

  it('edit shows the openai voice and phonetic setting the personality has', async () => {
    const p = makePersonality({
      name: 'Coach',
      voiceProvider: 'openai',
      voice: 'nova',
      voiceSettings: { provider: 'openai', openai_voice: 'nova', enable_phonetic_transcription: true },
    });
    const { user } = renderLibrary(ada, [p]);
    await user.click(within(await card('Coach')).getByRole('button', { name: 'Edit Coach' }));
    const form = await screen.findByRole('form', { name: 'Edit Coach' });
    expect(within(form).getByRole('combobox', { name: 'OpenAI voice' })).toHaveTextContent('Nova (female)');
    expect(within(form).getByRole('checkbox', { name: 'Enable phonetic transcription' })).toBeChecked();
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('form', { name: 'Edit Coach' })).toBeNull();
  });

  it('shows the failure toast when an edit is refused', async () => {
    const p = makePersonality({ name: 'Stubborn' });
    const api = stubApi({
      viewer: ada,
      personalities: [p],
      override: (c) =>
        c.method === 'PATCH' ? { status: 404, body: { error: { code: 'NOT_FOUND', message: 'Personality not found' } } } : undefined,
    });
    renderWithApp(<PersonalitiesDashboard renderConversation={() => null} />);
    const user = userEvent.setup();
    await user.click(within(await card('Stubborn')).getByRole('button', { name: 'Edit Stubborn' }));
    await user.type(await screen.findByLabelText('Name'), '!');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Failed to update personality')).toBeInTheDocument();
    expect(api.calls.some((c) => c.method === 'PATCH')).toBe(true);
  });

  it('asks for confirmation with the spec text before deleting', async () => {
    const p = makePersonality({ name: 'Doomed' });
    const { api, user } = renderLibrary(ada, [p]);
    await user.click(within(await card('Doomed')).getByRole('button', { name: 'Delete Doomed' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete Doomed?' });
    expect(dialog).toHaveTextContent(
      'Are you sure you want to delete this personality? This will also delete all associated documents.',
    );

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete Doomed' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Personality deleted successfully')).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`/api/personalities/${p.id}`]);
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Doomed' })).toBeNull());
  });

  it('lets a recipient remove a personality shared with them from their library, after confirming', async () => {
    const shared = makePersonality({ name: 'Pushy Stranger', sharingType: 'shared', isOwner: false });
    const publicOther = makePersonality({ name: 'Public other', sharingType: 'public', isPublic: true, isOwner: false });
    const { api, user } = renderLibrary(ada, [shared, publicOther]);
    // Only on a personality shared with the viewer: public ones and their own have no such action.
    expect(within(await card('Public other')).queryByRole('button', { name: /from my library/ })).toBeNull();
    await user.click(within(await card('Pushy Stranger')).getByRole('button', { name: 'Remove Pushy Stranger from my library' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove Pushy Stranger from your library?' });
    expect(dialog).toHaveTextContent('You will no longer see it or chat with it unless they share it with you again.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);

    await user.click(within(await card('Pushy Stranger')).getByRole('button', { name: 'Remove Pushy Stranger from my library' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Removed from your library')).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`/api/personalities/${shared.id}/my-share`]);
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Pushy Stranger' })).toBeNull());
    expect(await card('Public other')).toBeInTheDocument();
  });

  it('shows the failure toast when a delete is refused', async () => {
    const p = makePersonality({ name: 'Kept' });
    stubApi({
      viewer: ada,
      personalities: [p],
      override: (c) =>
        c.method === 'DELETE' ? { status: 403, body: { error: { code: 'FORBIDDEN', message: 'Nope' } } } : undefined,
    });
    renderWithApp(<PersonalitiesDashboard renderConversation={() => null} />);
    const user = userEvent.setup();
    await user.click(within(await card('Kept')).getByRole('button', { name: 'Delete Kept' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete personality')).toBeInTheDocument();
    expect(await card('Kept')).toBeInTheDocument();
  });

  it('reaches the owner actions with the keyboard', async () => {
    const { user } = renderLibrary(ada, [makePersonality({ name: 'Keys' })]);
    await card('Keys');
    await user.tab(); // Add Personality
    await user.tab(); // Import
    await user.tab();
    expect(screen.getByRole('button', { name: 'Edit Keys' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Export Keys as a character card' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Delete Keys' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('alertdialog', { name: 'Delete Keys?' })).toBeInTheDocument();
  });

  it('after a delete, focus goes to the next card (the previous one for the last card, then the title)', async () => {
    const { user } = renderLibrary(ada, [makePersonality({ id: 'p-a', name: 'Alpha' }), makePersonality({ id: 'p-b', name: 'Beta' }), makePersonality({ id: 'p-c', name: 'Gamma' })]);
    const remove = async (name: string) => {
      within(await card(name)).getByRole('button', { name: `Delete ${name}` }).focus();
      await user.keyboard('{Enter}');
      await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
      await waitFor(() => expect(screen.queryByRole('article', { name })).toBeNull());
    };
    await remove('Alpha');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Edit Beta' })).toHaveFocus());
    await remove('Gamma');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Edit Beta' })).toHaveFocus());
    await remove('Beta');
    await waitFor(() => expect(screen.getByRole('heading', { level: 1, name: 'Kindred spirits' })).toHaveFocus());
  });

  it('marks names and descriptions dir="auto" (they may be right-to-left)', async () => {
    renderLibrary(ada, [makePersonality({ name: 'جبران خليل جبران', description: 'شاعر وكاتب' })]);
    const article = await card('جبران خليل جبران');
    expect(within(article).getByText('جبران خليل جبران')).toHaveAttribute('dir', 'auto');
    expect(within(article).getByText('شاعر وكاتب').closest('p')).toHaveAttribute('dir', 'auto');
  });
});
