import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { api } from '../../../lib/api-client';
import { ConversationView } from '../../conversation/components/conversation-view';
import { PersonalitiesDashboard } from './personalities-dashboard';
import { ada, makePersonality, renderWithApp, stubApi } from '../test-support/personalities-api-stub';

afterEach(() => vi.unstubAllGlobals());

const dashboard = (
  <PersonalitiesDashboard renderConversation={(p, onBack) => <ConversationView personality={p} onBack={onBack} />} />
);
const location = () => screen.getByTestId('location').textContent;
const listCalls = (calls: { method: string; path: string }[]) =>
  calls.filter((c) => c.method === 'GET' && c.path === '/api/personalities');

describe('personalities dashboard', () => {
  it('signed in with nothing to show: "Add Personality" and "No personalities yet"', async () => {
    stubApi({ viewer: ada });
    renderWithApp(dashboard);
    expect(await screen.findByText('No personalities yet')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add Personality' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Sign In to Create' })).toBeNull();
  });

  it('signed out with nothing public: "Sign In to Create" links to /auth', async () => {
    stubApi({ viewer: null });
    renderWithApp(dashboard);
    expect(await screen.findByText('No public personalities available')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add Personality' })).toBeNull();
    const signIn = screen.getByRole('link', { name: 'Sign In to Create' });
    expect(signIn).toHaveAttribute('href', '/auth');
    await userEvent.setup().click(signIn);
    expect(await screen.findByRole('heading', { name: 'Auth screen' })).toBeInTheDocument();
  });

  it('shows skeletons while loading', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const api = stubApi({ viewer: ada, personalities: [makePersonality({ name: 'Late' })] });
    const answer = api.fetchMock.getMockImplementation()!;
    api.fetchMock.mockImplementation(async (input, init) => {
      if (String(input).includes('/api/personalities')) await gate;
      return answer(input, init);
    });
    renderWithApp(dashboard);
    expect(await screen.findByRole('status', { name: 'Loading personalities' })).toBeInTheDocument();
    act(() => release());
    expect(await screen.findByRole('article', { name: 'Late' })).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Loading personalities' })).toBeNull();
  });

  it('shows a load error with a retry that fetches again', async () => {
    let fail = true;
    const api = stubApi({
      viewer: ada,
      personalities: [makePersonality({ name: 'Back again' })],
      override: (c) =>
        fail && c.path === '/api/personalities'
          ? { status: 500, body: { error: { code: 'INTERNAL', message: 'An unexpected error occurred' } } }
          : undefined,
    });
    renderWithApp(dashboard);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load personalities');
    expect(alert).toHaveTextContent('An unexpected error occurred');
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('article', { name: 'Back again' })).toBeInTheDocument();
    expect(listCalls(api.calls)).toHaveLength(2);
  });

  it('fetches the list again when the viewer signs in', async () => {
    const api = stubApi({ viewer: null });
    const { queryClient } = renderWithApp(dashboard);
    await screen.findByText('No public personalities available');
    expect(listCalls(api.calls)).toHaveLength(1);
    api.setViewer(ada);
    await act(() => queryClient.invalidateQueries({ queryKey: ['auth'] }));
    expect(await screen.findByText('No personalities yet')).toBeInTheDocument();
    expect(listCalls(api.calls)).toHaveLength(2);
  });

  it('Start Chat opens the conversation in place of the grid, and Back returns', async () => {
    const p = makePersonality({ name: 'Socrates', sharingType: 'public', isPublic: true, isOwner: false });
    stubApi({ viewer: null, personalities: [p] });
    renderWithApp(dashboard);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Start Chat with Socrates' }));

    const title = await screen.findByRole('heading', { name: 'Conversation with Socrates' });
    expect(title).toHaveFocus();
    expect(location()).toBe(`/?chat=${p.id}`);
    expect(screen.queryByRole('article', { name: 'Socrates' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('article', { name: 'Socrates' })).toBeInTheDocument();
    expect(location()).toBe('/');
    // Focus returns to where the person left the library.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Start Chat with Socrates' })).toHaveFocus());
  });

  it('gives focus back to "Add Personality" when its form closes (Cancel, or created)', async () => {
    stubApi({ viewer: ada });
    renderWithApp(dashboard);
    const user = userEvent.setup();
    const add = await screen.findByRole('button', { name: 'Add Personality' });
    await user.click(add);
    expect(add).toBeDisabled();
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(add).toHaveFocus());

    await user.keyboard('{Enter}');
    await user.type(await screen.findByLabelText('Name'), 'Hypatia');
    await user.click(screen.getByRole('button', { name: 'Create Personality' }));
    expect(await screen.findByRole('article', { name: 'Hypatia' })).toBeInTheDocument();
    await waitFor(() => expect(add).toHaveFocus());
  });

  it('opens a conversation from the URL, and Back leaves it even without history', async () => {
    const p = makePersonality({ name: 'Hypatia', sharingType: 'public', isPublic: true, isOwner: false });
    stubApi({ viewer: null, personalities: [p] });
    renderWithApp(dashboard, { path: `/?chat=${p.id}` });
    expect(await screen.findByRole('heading', { name: 'Conversation with Hypatia' })).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('article', { name: 'Hypatia' })).toBeInTheDocument();
    expect(location()).toBe('/');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Start Chat with Hypatia' })).toHaveFocus());
  });

  it('a personality deleted elsewhere: the 404 its conversation gets makes way for "not available"', async () => {
    const p = makePersonality({ name: 'Hypatia', sharingType: 'shared', isOwner: false });
    const stub = stubApi({ viewer: ada, personalities: [p] });
    renderWithApp(dashboard, { path: `/?chat=${p.id}` });
    expect(await screen.findByRole('heading', { name: 'Conversation with Hypatia' })).toBeInTheDocument();
    stub.store.splice(0); // its owner deleted it (or unshared it) in another tab
    // Any call about it now answers 404, through the app's one API client.
    await act(async () => void (await api.api.personalities[':id'].$get({ param: { id: p.id } })));
    expect(await screen.findByText('This personality is not available.')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Conversation with Hypatia' })).toBeNull();
  });

  it('Back reads the library again: a rename made elsewhere shows', async () => {
    const p = makePersonality({ name: 'Hypatia', sharingType: 'public', isPublic: true, isOwner: false });
    const stub = stubApi({ viewer: null, personalities: [p] });
    renderWithApp(dashboard, { path: `/?chat=${p.id}` });
    expect(await screen.findByRole('heading', { name: 'Conversation with Hypatia' })).toBeInTheDocument();
    stub.store[0] = { ...p, name: 'Hypatia of Alexandria' };
    await userEvent.setup().click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('article', { name: 'Hypatia of Alexandria' })).toBeInTheDocument();
  });

  it('says so when the conversation asked for is not visible', async () => {
    stubApi({ viewer: null, personalities: [] });
    renderWithApp(dashboard, { path: '/?chat=missing' });
    expect(await screen.findByText('This personality is not available.')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(location()).toBe('/'));
    expect(await screen.findByText('No public personalities available')).toBeInTheDocument();
  });

  it('tells a signed-out viewer of a link they cannot see that signing in may show it', async () => {
    stubApi({ viewer: null, personalities: [] });
    renderWithApp(dashboard, { path: '/?chat=shared-one' });
    expect(await screen.findByText('This personality is not available.')).toBeInTheDocument();
    expect(screen.getByText(/If it was shared with you,/)).toBeInTheDocument();
    const signIn = screen.getByRole('link', { name: 'sign in to see it' });
    expect(signIn).toHaveAttribute('href', '/auth');
  });

  it('does not offer signing in to a viewer who is signed in already', async () => {
    stubApi({ viewer: ada, personalities: [] });
    renderWithApp(dashboard, { path: '/?chat=shared-one' });
    expect(await screen.findByText('This personality is not available.')).toBeInTheDocument();
    expect(screen.queryByText(/If it was shared with you/)).toBeNull();
  });

  it('when the library could not load, says so with a retry instead of "not available"', async () => {
    let fail = true;
    const p = makePersonality({ name: 'Hypatia', sharingType: 'public', isPublic: true, isOwner: false });
    stubApi({
      viewer: null,
      personalities: [p],
      override: (c) =>
        fail && c.path === '/api/personalities'
          ? { status: 500, body: { error: { code: 'INTERNAL', message: 'An unexpected error occurred' } } }
          : undefined,
    });
    renderWithApp(dashboard, { path: `/?chat=${p.id}` });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load personalities');
    expect(screen.queryByText('This personality is not available.')).toBeNull();
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Conversation with Hypatia' })).toBeInTheDocument();
  });
});
