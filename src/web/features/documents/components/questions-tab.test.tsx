// The User Questions tab: the list with "Registered User" badges, and deleting everything asked
// before a chosen date ("Please select a date" without one; the spec's failure message).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { format } from 'date-fns';
import type { PersonalityQuestion } from '../../../../shared/schemas/conversations';
import { ada } from '../../../test-support/fake-api';
import { renderApp } from '../../../test-support/render-app';
import { apiError, personalityId, stubDocumentsApi } from '../test-support/documents-api-stub';
import { QuestionsTab } from './questions-tab';
import { startOfLocalDay } from './question-delete-form';

afterEach(() => vi.unstubAllGlobals());

const questions: PersonalityQuestion[] = [
  { id: 'q3', questionText: 'What did you think of Babbage?', askedAt: '2026-03-07T12:30:00.000Z', isRegisteredUser: true },
  { id: 'q2', questionText: '<b>Bold?</b>', askedAt: '2026-03-05T08:00:00.000Z', isRegisteredUser: false },
  { id: 'q1', questionText: 'Who was your father?', askedAt: '2026-03-01T09:15:00.000Z', isRegisteredUser: true },
];

function setup(override?: Parameters<typeof stubDocumentsApi>[0]['override']) {
  const api = stubDocumentsApi({ user: ada, questions, override });
  renderApp(<QuestionsTab personalityId={personalityId} />);
  return { api, user: userEvent.setup() };
}

const path = `/api/personalities/${personalityId}/questions`;

describe('User Questions tab', () => {
  it('lists questions newest first with their time and a "Registered User" badge where known', async () => {
    setup();
    const list = await screen.findByRole('list', { name: 'Questions' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveTextContent('What did you think of Babbage?');
    expect(items[0]).toHaveTextContent('Registered User');
    expect(items[0]).toHaveTextContent(format(new Date('2026-03-07T12:30:00.000Z'), 'MMM d, yyyy HH:mm'));
    // Shown as typed, never as markup.
    expect(items[1]).toHaveTextContent('<b>Bold?</b>');
    expect(items[1]!.querySelector('b')).toBeNull();
    expect(items[1]).not.toHaveTextContent('Registered User');
  });

  it('asks for a date before deleting, and sends nothing without one', async () => {
    const { api, user } = setup();
    await screen.findByRole('list', { name: 'Questions' });
    await user.click(screen.getByRole('button', { name: 'Delete earlier questions' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please select a date');
    expect(api.callsTo('DELETE', path)).toHaveLength(0);
  });

  it('deletes questions strictly before the start of the chosen day and refreshes the list', async () => {
    const { api, user } = setup();
    await screen.findByRole('list', { name: 'Questions' });
    await user.type(screen.getByLabelText('Delete questions asked before'), '2026-03-05');
    await user.click(screen.getByRole('button', { name: 'Delete earlier questions' }));
    const sent = api.callsTo('DELETE', path);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.query.get('before')).toBe(new Date(2026, 2, 5).toISOString());
    await waitFor(() => expect(screen.queryByText('Who was your father?')).toBeNull());
    expect(await screen.findByText('1 question deleted')).toBeInTheDocument();
    expect(screen.getByText('What did you think of Babbage?')).toBeInTheDocument();
  });

  it('reports a refused delete with the spec\'s message', async () => {
    const { user } = setup((c) =>
      c.method === 'DELETE' ? apiError(403, 'FORBIDDEN', 'Only the owner can change this personality') : undefined,
    );
    await screen.findByRole('list', { name: 'Questions' });
    await user.type(screen.getByLabelText('Delete questions asked before'), '2026-03-05');
    await user.click(screen.getByRole('button', { name: 'Delete earlier questions' }));
    expect(await screen.findByText('Failed to delete questions. You may not have permission.')).toBeInTheDocument();
    expect(screen.getByText('Who was your father?')).toBeInTheDocument();
  });

  it('reads a chosen day as local midnight', () => {
    expect(startOfLocalDay('2026-03-05')?.getTime()).toBe(new Date(2026, 2, 5, 0, 0, 0).getTime());
    expect(startOfLocalDay('')).toBeNull();
    expect(startOfLocalDay('05/03/2026')).toBeNull();
  });

  it('says so when there are no questions', async () => {
    stubDocumentsApi({ user: ada, questions: [] });
    renderApp(<QuestionsTab personalityId={personalityId} />);
    expect(await screen.findByText(/No questions yet/)).toBeInTheDocument();
  });
});
