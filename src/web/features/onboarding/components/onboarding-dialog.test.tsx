import { beforeEach, describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { onboardingCompletedKey, onboardingShownKey } from '../hooks/onboarding-storage';
import { OnboardingDialog } from './onboarding-dialog';

// render() runs inside act(), so the opening effect has run by the time it returns: a dialog
// that is absent right after render would not appear later.
beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

const titles = ['Welcome to Kindred', 'Teach them with documents', 'Talk with them', "You're ready!"];
const progressValue = () => Number(screen.getByRole('progressbar', { name: 'Onboarding progress' }).getAttribute('aria-valuenow'));

describe('onboarding dialog', () => {
  it('walks through 4 steps with Previous/Next, "n of 4" and a progress bar, ending with "Get Started"', async () => {
    render(<OnboardingDialog userId="user-1" />);
    const user = userEvent.setup();
    expect(await screen.findByRole('dialog', { name: titles[0] })).toBeInTheDocument();
    expect(screen.getByText('1 of 4')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(progressValue()).toBe(25);

    for (let step = 2; step <= 4; step++) {
      await user.click(screen.getByRole('button', { name: 'Next' }));
      expect(screen.getByRole('dialog', { name: titles[step - 1] })).toBeInTheDocument();
      expect(screen.getByText(`${step} of 4`)).toBeInTheDocument();
      expect(progressValue()).toBe(step * 25);
    }
    expect(screen.queryByRole('button', { name: 'Next' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Get Started' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(screen.getByText('3 of 4')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeInTheDocument();
  });

  it("has the spec's step contents", async () => {
    render(<OnboardingDialog userId="user-1" />);
    const user = userEvent.setup();
    await screen.findByRole('dialog');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText(/\(TXT\)/)).toBeInTheDocument();
    expect(screen.getByText(/Speeches, interviews and MP3/)).toBeInTheDocument();
    expect(screen.getByText('Web content')).toBeInTheDocument();
    expect(screen.getByText(/processed securely and privately/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('Text chat')).toBeInTheDocument();
    expect(screen.getByText('Voice chat')).toBeInTheDocument();
    expect(screen.getByText(/Moderation keeps every conversation appropriate/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('Add Personality')).toBeInTheDocument();
    expect(screen.getByText(/start with 2-3 documents/)).toBeInTheDocument();
  });

  it('"Get Started" records completion for that user, and it never shows again, even in a new session', async () => {
    const first = render(<OnboardingDialog userId="user-1" />);
    const user = userEvent.setup();
    await screen.findByRole('dialog');
    for (let i = 0; i < 3; i++) await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Get Started' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(localStorage.getItem(onboardingCompletedKey('user-1'))).toBe('true');
    first.unmount();

    sessionStorage.clear(); // a new browser session
    render(<OnboardingDialog userId="user-1" />);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows once per browser session: closing marks it shown, a new session shows it again', async () => {
    const first = render(<OnboardingDialog userId="user-1" />);
    const user = userEvent.setup();
    await screen.findByRole('dialog');
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sessionStorage.getItem(onboardingShownKey('user-1'))).toBe('true');
    expect(localStorage.getItem(onboardingCompletedKey('user-1'))).toBeNull();
    first.unmount();

    const second = render(<OnboardingDialog userId="user-1" />);
    expect(screen.queryByRole('dialog')).toBeNull();
    second.unmount();

    sessionStorage.clear();
    render(<OnboardingDialog userId="user-1" />);
    expect(await screen.findByRole('dialog', { name: titles[0] })).toBeInTheDocument();
  });

  it('is per user, and not shown to signed-out visitors', async () => {
    localStorage.setItem(onboardingCompletedKey('user-1'), 'true');
    const view = render(<OnboardingDialog userId={null} />);
    expect(screen.queryByRole('dialog')).toBeNull();
    view.rerender(<OnboardingDialog userId="user-1" />);
    expect(screen.queryByRole('dialog')).toBeNull();
    view.rerender(<OnboardingDialog userId="user-2" />);
    expect(await screen.findByRole('dialog', { name: titles[0] })).toBeInTheDocument();
  });

  it('keeps focus inside the dialog on Previous/Next, and announces each step with its title', async () => {
    render(<OnboardingDialog userId="user-1" />);
    const user = userEvent.setup();
    await screen.findByRole('dialog', { name: titles[0] });
    const next = screen.getByRole('button', { name: 'Next' });
    next.focus();
    await user.keyboard('{Enter}');
    // The title is a live region: the new step is announced by its title.
    const title = screen.getByRole('heading', { name: titles[1] });
    expect(title).toHaveAttribute('aria-live', 'polite');
    expect(screen.getByRole('dialog')).toHaveAccessibleName(titles[1]);
    expect(next).toHaveFocus();
    await user.keyboard('{Enter}');
    await user.keyboard('{Enter}');
    // Next became Get Started in place: focus stayed on it.
    expect(screen.getByRole('button', { name: 'Get Started' })).toBe(next);
    expect(next).toHaveFocus();
    expect(title).toHaveTextContent(titles[3]);

    const previous = screen.getByRole('button', { name: 'Previous' });
    previous.focus();
    await user.keyboard('{Enter}');
    await user.keyboard('{Enter}');
    expect(previous).toHaveFocus();
    expect(title).toHaveTextContent(titles[1]);
    // Back on step 1 Previous is disabled: focus goes to the step's title, not out of the dialog.
    await user.keyboard('{Enter}');
    expect(previous).toBeDisabled();
    await waitFor(() => expect(screen.getByRole('heading', { name: titles[0] })).toHaveFocus());
    expect(screen.getByRole('dialog')).toContainElement(document.activeElement as HTMLElement);
  });
});
