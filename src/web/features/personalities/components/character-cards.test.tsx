// The Import action and dialog (preview, Import, Cancel, bad files) and the owner's export links.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PersonalitiesDashboard } from './personalities-dashboard';
import { ada, makePersonality, renderWithApp, stubApi } from '../test-support/personalities-api-stub';

afterEach(() => vi.unstubAllGlobals());

const dashboard = <PersonalitiesDashboard renderConversation={() => null} />;
const script = '<script>window.hacked = true</script><b>bold</b>';
const preview = {
  name: 'Captain Mirella',
  description: `A sky pirate. ${script}`,
  greeting: 'Ahoy!',
  behaviorInstructions: 'Personality:\nBold.',
  lorebookEntries: 2,
  hasImage: true,
  descriptionContinued: false,
  spec: 'chara_card_v2',
};

async function openImport() {
  const user = userEvent.setup();
  renderWithApp(dashboard);
  await user.click(await screen.findByRole('button', { name: 'Import' }));
  // The dialog is a lazy chunk: on a busy machine its first load can take more than a second.
  const dialog = await screen.findByRole('dialog', { name: 'Import a character card' }, { timeout: 10_000 });
  return { user, dialog };
}

describe('import a character card', () => {
  it('is offered beside "Add Personality" only to a signed-in person', async () => {
    stubApi({ viewer: null });
    renderWithApp(dashboard);
    await screen.findByText('No public personalities available');
    expect(screen.queryByRole('button', { name: 'Import' })).toBeNull();
  });

  it('previews the chosen file (card text shown as text), then imports it', async () => {
    const api = stubApi({
      viewer: ada,
      override: (call) => {
        if (call.path === '/api/personalities/import/preview') return { status: 200, body: { preview } };
        if (call.path === '/api/personalities/import') return { status: 201, body: { personality: makePersonality({ name: 'Captain Mirella' }) } };
        return undefined;
      },
    });
    const { user, dialog } = await openImport();
    expect(within(dialog).getByRole('button', { name: 'Import' })).toBeDisabled();
    await user.upload(within(dialog).getByLabelText('Character card file'), new File(['{}'], 'mirella.json', { type: 'application/json' }));

    const shown = await within(dialog).findByRole('region', { name: 'Card preview' });
    expect(within(shown).getByTestId('card-preview-name')).toHaveTextContent('Captain Mirella');
    expect(within(shown).getByTestId('card-preview-description').textContent).toBe(`A sky pirate. ${script}`);
    expect(shown.querySelector('script, b')).toBeNull();
    expect(within(shown).getByTestId('card-preview-greeting')).toHaveTextContent('Ahoy!');
    expect(within(shown).getByTestId('card-preview-lorebook-entries')).toHaveTextContent('2 entries');
    expect(api.calls.filter((c) => c.path === '/api/personalities/import')).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Import' }));
    expect(await screen.findByText('Imported "Captain Mirella"')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Import a character card' })).toBeNull());
    expect(api.calls.filter((c) => c.method === 'POST' && c.path === '/api/personalities/import')).toHaveLength(1);
  });

  it('says when a long description goes on in the behaviour instructions (and not otherwise)', async () => {
    const long = { ...preview, description: 'The beginning.', behaviorInstructions: 'Description (continued):\nThe rest.\n\nPersonality:\nBold.', descriptionContinued: true };
    stubApi({
      viewer: ada,
      override: (call) => (call.path === '/api/personalities/import/preview' ? { status: 200, body: { preview: long } } : undefined),
    });
    const { user, dialog } = await openImport();
    await user.upload(within(dialog).getByLabelText('Character card file'), new File(['{}'], 'long.json', { type: 'application/json' }));
    const shown = await within(dialog).findByRole('region', { name: 'Card preview' });
    expect(within(shown).getByTestId('card-preview-description-continued')).toHaveTextContent(
      'The card\'s description is longer than 5000 characters: its beginning becomes the description, and the rest opens the behaviour instructions under "Description (continued)", so the character keeps all of it.',
    );
  });

  it('shows no such note for a description that fits', async () => {
    stubApi({
      viewer: ada,
      override: (call) => (call.path === '/api/personalities/import/preview' ? { status: 200, body: { preview } } : undefined),
    });
    const { user, dialog } = await openImport();
    await user.upload(within(dialog).getByLabelText('Character card file'), new File(['{}'], 'mirella.json', { type: 'application/json' }));
    const shown = await within(dialog).findByRole('region', { name: 'Card preview' });
    expect(within(shown).queryByTestId('card-preview-description-continued')).toBeNull();
  });

  it("shows the server's message for a bad file and offers no Import; Cancel creates nothing", async () => {
    const api = stubApi({
      viewer: ada,
      override: (call) =>
        call.path === '/api/personalities/import/preview'
          ? { status: 400, body: { error: { code: 'BAD_REQUEST', message: 'This file is not a character card: its name is blank' } } }
          : undefined,
    });
    const { user, dialog } = await openImport();
    await user.upload(within(dialog).getByLabelText('Character card file'), new File(['{}'], 'bad.json', { type: 'application/json' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('This file is not a character card: its name is blank');
    expect(within(dialog).getByRole('button', { name: 'Import' })).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls.filter((c) => c.path === '/api/personalities/import')).toHaveLength(0);
  });
});

describe('export a character card', () => {
  it('the owner gets "Export card (JSON)", "Export card (PNG)" when there is an image, and the note about documents', async () => {
    const withImage = makePersonality({ id: 'p-img', name: 'Pictured', hasAvatar: true });
    const plain = makePersonality({ id: 'p-plain', name: 'Plain' });
    stubApi({ viewer: ada, personalities: [withImage, plain] });
    const user = userEvent.setup();
    renderWithApp(dashboard);

    const pictured = await screen.findByRole('article', { name: 'Pictured' });
    expect(within(pictured).getByTestId('personality-avatar')).toHaveAttribute('src', expect.stringMatching(/^\/api\/personalities\/p-img\/avatar\?v=/));
    await user.click(within(pictured).getByRole('button', { name: 'Export Pictured as a character card' }));
    let dialog = await screen.findByRole('dialog', { name: 'Export Pictured' }, { timeout: 10_000 });
    expect(within(dialog).getByRole('link', { name: 'Export card (JSON)' })).toHaveAttribute('href', '/api/personalities/p-img/export.json');
    expect(within(dialog).getByRole('link', { name: 'Export card (PNG)' })).toHaveAttribute('href', '/api/personalities/p-img/export.png');
    expect(dialog).toHaveTextContent('Documents other than the imported lorebook are not exported.');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    const plainCard = screen.getByRole('article', { name: 'Plain' });
    expect(within(plainCard).queryByTestId('personality-avatar')).toBeNull();
    await user.click(within(plainCard).getByRole('button', { name: 'Export Plain as a character card' }));
    dialog = await screen.findByRole('dialog', { name: 'Export Plain' }, { timeout: 10_000 });
    expect(within(dialog).getByRole('link', { name: 'Export card (JSON)' })).toBeInTheDocument();
    expect(within(dialog).queryByRole('link', { name: 'Export card (PNG)' })).toBeNull();
  });

  it('is not offered on a personality the viewer does not own', async () => {
    stubApi({ viewer: ada, personalities: [makePersonality({ name: 'Theirs', isOwner: false, sharingType: 'public', isPublic: true })] });
    renderWithApp(dashboard);
    const card = await screen.findByRole('article', { name: 'Theirs' });
    expect(within(card).queryByRole('button', { name: /as a character card/ })).toBeNull();
  });
});

describe('focus after the card dialogs (opened without a dialog trigger)', () => {
  it('goes back to the Export button on Escape, and to Import on Close', async () => {
    stubApi({ viewer: ada, personalities: [makePersonality({ id: 'p-plain', name: 'Plain' })] });
    const user = userEvent.setup();
    renderWithApp(dashboard);

    const exportButton = within(await screen.findByRole('article', { name: 'Plain' })).getByRole('button', { name: 'Export Plain as a character card' });
    exportButton.focus();
    await user.keyboard('{Enter}');
    await screen.findByRole('dialog', { name: 'Export Plain' }, { timeout: 10_000 });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(exportButton).toHaveFocus());

    const importButton = screen.getByRole('button', { name: 'Import' });
    importButton.focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Import a character card' }, { timeout: 10_000 });
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(importButton).toHaveFocus());
  });
});
