// "Preview" shows exactly what a message would send, and "Send Prompt" sends exactly that: the
// signed previewId goes back with the same message, and the page adds no history of its own.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '../../../../shared/messages';
import { renderApp } from '../../../test-support/render-app';
import { GREETING, personality, stubConversationApi, type ConversationStubOptions } from '../test-support/conversation-api-stub';
import { ConversationView } from './conversation-view';

beforeEach(() => sessionStorage.clear());
afterEach(() => vi.unstubAllGlobals());

async function openChat(options: ConversationStubOptions = {}) {
  const api = stubConversationApi(options);
  renderApp(<ConversationView personality={personality} initialMode="text" onBack={() => {}} />);
  const user = userEvent.setup();
  const box = await screen.findByRole('textbox', { name: 'Message to Ada Lovelace' });
  await screen.findByText(GREETING);
  return { api, user, box };
}

const previews = (api: ReturnType<typeof stubConversationApi>) => api.callsTo('POST', `${api.base}/chat/preview`);

describe('prompt preview', () => {
  it('shows the system prompt, the referenced documents with % match and the messages array; Cancel sends nothing', async () => {
    const { api, user, box } = await openChat();
    await user.type(box, '  What did the engine weave?  ');
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Prompt preview' }));
    expect(previews(api).map((c) => c.body)).toEqual([{ message: 'What did the engine weave?', conversationHistory: [] }]);
    expect(dialog.getByTestId('preview-system-prompt')).toHaveTextContent('You are Ada Lovelace. <material>passages</material>');
    const docs = dialog.getByRole('list', { name: 'Referenced documents' });
    expect(docs).toHaveTextContent('engine-notes.txt (chunk 2)');
    expect(docs).toHaveTextContent('87% match');
    const sent = within(dialog.getByRole('list', { name: 'Messages array' })).getAllByRole('listitem');
    expect(sent.map((li) => li.textContent)).toEqual([
      'systemYou are Ada Lovelace.\n<material>passages</material>',
      'userWhat did the engine weave?',
    ]);

    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.chatCalls()).toHaveLength(0);
    expect(box).toHaveValue('  What did the engine weave?  ');
    // Focus is back on Preview, which opened it (the dialog has no trigger of its own).
    await waitFor(() => expect(screen.getByRole('button', { name: 'Preview' })).toHaveFocus());
  });

  it('keeps Preview focused while the preview loads, and gives focus back to it on Escape', async () => {
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    const { api, user, box } = await openChat();
    const answerFetch = api.fetchMock.getMockImplementation()!;
    api.fetchMock.mockImplementation(async (input, init) => {
      if (String(input instanceof Request ? input.url : input).includes('/chat/preview')) await held;
      return answerFetch(input, init);
    });
    await user.type(box, 'What did the engine weave?');
    const preview = screen.getByRole('button', { name: 'Preview' });
    preview.focus();
    await user.keyboard('{Enter}');
    // Loading: it waits (aria-disabled) rather than being disabled, so focus stays on it.
    await waitFor(() => expect(preview).toHaveAttribute('aria-disabled', 'true'));
    expect(preview).toBeEnabled();
    expect(preview).toHaveFocus();
    answer();
    await screen.findByRole('dialog', { name: 'Prompt preview' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(preview).toHaveFocus());
  });

  it('lets the keyboard reach and scroll the system prompt (a named, focusable block)', async () => {
    const { user, box } = await openChat();
    await user.type(box, 'Hello');
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Prompt preview' }));
    const system = dialog.getByRole('group', { name: 'System prompt' });
    expect(system).toBe(dialog.getByTestId('preview-system-prompt'));
    expect(system).toHaveAttribute('tabindex', '0');
  });

  it('"Send Prompt" sends the previewed message with its signed previewId, and no history of its own', async () => {
    const { api, user, box } = await openChat();
    // One exchange first, so there is history the preview already accounted for.
    await user.type(box, 'First{Enter}');
    await waitFor(() => expect(api.chatCalls()).toHaveLength(1));
    await screen.findByText('You asked: First');

    await user.type(box, 'Second question');
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Prompt preview' }));
    expect(previews(api)[0]!.body).toEqual({
      message: 'Second question',
      conversationHistory: [
        { role: 'user', content: 'First' },
        { role: 'assistant', content: 'You asked: First' },
      ],
    });
    await user.click(dialog.getByRole('button', { name: 'Send Prompt' }));
    await waitFor(() => expect(api.chatCalls()).toHaveLength(2));
    expect(api.chatCalls()[1]!.body).toEqual({ message: 'Second question', previewId: 'signed-preview-1' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(box).toHaveValue('');
    // Sent: focus goes to the message box, ready for the next one.
    await waitFor(() => expect(box).toHaveFocus());
    expect(await screen.findByText('You asked: Second question')).toBeInTheDocument();
  });

  it('says "Failed to load prompt preview" when the preview cannot be made, keeping the message', async () => {
    const { api, user, box } = await openChat({
      preview: () => ({ status: 500, body: { error: { code: 'INTERNAL', message: 'Something went wrong' } } }),
    });
    await user.type(box, 'Hello');
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    expect(await screen.findByText(messages.chat.previewFailed)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(box).toHaveValue('Hello');
    expect(api.chatCalls()).toHaveLength(0);
  });

  it('an expired preview is refused by the server: its reason shows and the message returns to the box', async () => {
    const { user, box } = await openChat({
      chat: () => ({ status: 400, body: { error: { code: 'BAD_REQUEST', message: messages.chat.previewExpired } } }),
    });
    await user.type(box, 'Hello');
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    await user.click(await screen.findByRole('button', { name: 'Send Prompt' }));
    expect(await screen.findByText(messages.chat.previewExpired)).toBeInTheDocument();
    await waitFor(() => expect(box).toHaveValue('Hello'));
  });
});
