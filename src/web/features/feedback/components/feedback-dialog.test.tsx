import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FEEDBACK_CATEGORIES } from '../../../../shared/limits';
import { fakeApi } from '../../../test-support/fake-api';
import { renderApp } from '../../../test-support/render-app';
import { FeedbackDialog } from './feedback-dialog';

afterEach(() => vi.unstubAllGlobals());

async function openDialog() {
  renderApp(<FeedbackDialog trigger={<button type="button">Feedback</button>} />);
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'Feedback' }));
  const dialog = await screen.findByRole('dialog', { name: 'Share your feedback' });
  return { user, dialog };
}

const textBox = () => screen.getByRole('textbox', { name: 'Your message' });
const submitButton = () => screen.getByRole('button', { name: /^(Submit|Submitting\.\.\.)$/ });

describe('feedback dialog', () => {
  it('offers the six categories as radio options (General Feedback chosen), a 1-5 rating and a 4-row text box', async () => {
    fakeApi();
    await openDialog();
    const radios = screen.getAllByRole('radio');
    expect(radios.map((r) => r.textContent || r.closest('label')?.textContent)).toEqual(FEEDBACK_CATEGORIES.map((c) => c.label));
    expect(screen.getByRole('radio', { name: 'General Feedback' })).toBeChecked();
    for (const name of ['1 - Poor', '2 - Fair', '3 - Good', '4 - Very Good', '5 - Excellent']) {
      expect(screen.getByRole('button', { name })).toHaveAttribute('aria-pressed', 'false');
    }
    expect(textBox()).toHaveAttribute('rows', '4');
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeEnabled();
  });

  it('keeps Submit disabled while the text is empty and refuses blank text with "Please provide some feedback"', async () => {
    const api = fakeApi();
    const { user } = await openDialog();
    expect(submitButton()).toBeDisabled();
    await user.type(textBox(), '   ');
    expect(submitButton()).toBeEnabled();
    await user.click(submitButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('Please provide some feedback');
    expect(textBox()).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo('POST', '/api/feedback')).toHaveLength(0);
  });

  it('refuses text of invisible characters only (zero-width, direction marks, a lone accent) like blank text', async () => {
    const api = fakeApi();
    const { user } = await openDialog();
    await user.type(textBox(), '\u200B\u200D\u200F\u0301');
    await user.click(submitButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('Please provide some feedback');
    expect(textBox()).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo('POST', '/api/feedback')).toHaveLength(0);
  });

  it('posts category, rating, trimmed text and the page URL; reads "Submitting..." while sending', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const api = fakeApi({
      override: async (call) => {
        if (call.path === '/api/feedback') await gate;
        return undefined;
      },
    });
    const { user } = await openDialog();
    await user.click(screen.getByRole('radio', { name: 'Voice Experience' }));
    await user.click(screen.getByRole('button', { name: '4 - Very Good' }));
    await user.type(textBox(), '  The voices are <b>lovely</b>  ');
    await user.click(submitButton());

    await waitFor(() => expect(submitButton()).toHaveTextContent('Submitting...'));
    expect(submitButton()).toBeDisabled();
    expect(api.callsTo('POST', '/api/feedback')[0]!.body).toEqual({
      category: 'voice',
      rating: 4,
      feedback: 'The voices are <b>lovely</b>',
      url: window.location.href,
    });
    await act(async () => release());
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('sends rating null when none is chosen (choosing a star again clears it)', async () => {
    const api = fakeApi();
    const { user } = await openDialog();
    await user.click(screen.getByRole('button', { name: '2 - Fair' }));
    expect(screen.getByRole('button', { name: '2 - Fair' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(screen.getByRole('button', { name: '2 - Fair' }));
    expect(screen.getByRole('button', { name: '2 - Fair' })).toHaveAttribute('aria-pressed', 'false');
    await user.type(textBox(), 'Fine');
    await user.click(submitButton());
    await waitFor(() => expect(api.callsTo('POST', '/api/feedback')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/feedback')[0]!.body).toMatchObject({ category: 'general', rating: null, feedback: 'Fine' });
  });

  it('a star tapped again on a touch screen clears the rating and its stars go out', async () => {
    fakeApi();
    await openDialog();
    // A tap: focus and a pointer over the star, then a click; no pointer ever leaves it.
    const tap = (el: HTMLElement) => {
      act(() => el.focus());
      fireEvent.mouseEnter(el);
      fireEvent.click(el);
    };
    const four = screen.getByRole('button', { name: '4 - Very Good' });
    tap(four);
    expect(screen.getByTestId('rating-label')).toHaveTextContent('Very Good');
    tap(four);
    expect(screen.getByTestId('rating-label')).toHaveTextContent('No rating');
    const lit = screen.getAllByRole('button', { name: /^\d - / }).filter((star) => star.querySelector('svg')?.classList.contains('fill-gold'));
    expect(lit).toEqual([]);
  });

  it('announces only the rating chosen, not each star focused on the way', async () => {
    fakeApi();
    const { user } = await openDialog();
    const live = screen.getByTestId('rating-label');
    expect(live).toHaveAttribute('aria-live', 'polite');
    expect(live).toHaveTextContent('No rating');
    screen.getByRole('button', { name: '1 - Poor' }).focus();
    await user.tab();
    await user.tab();
    // Tabbing across the stars chose nothing: nothing new to announce.
    expect(screen.getByRole('button', { name: '3 - Good' })).toHaveFocus();
    expect(live).toHaveTextContent('No rating');
    await user.keyboard('{Enter}');
    expect(live).toHaveTextContent('Good');
    await user.tab();
    expect(live).toHaveTextContent('Good');
    await user.keyboard('{Shift>}{Tab}{/Shift}{Enter}');
    expect(live).toHaveTextContent('No rating');
  });

  it('thanks the person and resets the form after success', async () => {
    fakeApi();
    const { user } = await openDialog();
    await user.click(screen.getByRole('radio', { name: 'Bug Report' }));
    await user.click(screen.getByRole('button', { name: '5 - Excellent' }));
    await user.type(textBox(), 'Found a bug');
    await user.click(submitButton());

    expect(await screen.findByText('Thank you!')).toBeInTheDocument();
    expect(screen.getByText('Your feedback has been submitted successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(screen.getByRole('button', { name: 'Feedback' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('textbox', { name: 'Your message' })).toHaveValue('');
    expect(within(dialog).getByRole('radio', { name: 'General Feedback' })).toBeChecked();
    expect(within(dialog).getByRole('button', { name: '5 - Excellent' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('shows the failure toast and keeps what was typed when the server refuses', async () => {
    fakeApi({
      override: (call) =>
        call.path === '/api/feedback'
          ? { status: 429, body: { error: { code: 'RATE_LIMITED', message: 'Too many requests.' } } }
          : undefined,
    });
    const { user } = await openDialog();
    await user.type(textBox(), 'Still here');
    await user.click(submitButton());
    expect(await screen.findByText('Failed to submit feedback. Please try again.')).toBeInTheDocument();
    expect(textBox()).toHaveValue('Still here');
    expect(submitButton()).toHaveTextContent('Submit');
  });

  it('Cancel closes the dialog', async () => {
    fakeApi();
    const { user } = await openDialog();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
