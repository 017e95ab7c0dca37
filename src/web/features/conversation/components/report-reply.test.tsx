import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '../../../test-support/render-app';
import { fakeApi } from '../../../test-support/fake-api';
import { ReportReplyDialog } from './report-reply-dialog';
import { ChatMessage } from './chat-message';
import type { LogMessage } from '../utils/log-message';

afterEach(() => vi.unstubAllGlobals());

const PATH = '/api/personalities/p-1/reports';

describe('Report on a reply', () => {
  it('sends the reply and the optional reason, and thanks the person', async () => {
    const api = fakeApi({ override: ({ method, path }) => (method === 'POST' && path === PATH ? { status: 200, body: { ok: true } } : undefined) });
    const user = userEvent.setup();
    renderApp(<ReportReplyDialog personalityId="p-1" content="A <b>strange</b> reply." />);
    await user.click(screen.getByRole('button', { name: 'Report this reply' }));
    const dialog = screen.getByRole('dialog', { name: 'Report this reply' });
    // The reply is shown as text.
    expect(within(dialog).getByText('A <b>strange</b> reply.')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Reason (optional)'), 'It was rude');
    await user.click(within(dialog).getByRole('button', { name: 'Report' }));
    expect(await screen.findByText('Thank you. The reply has been reported for review.')).toBeInTheDocument();
    expect(api.callsTo('POST', PATH)[0]!.body).toEqual({ content: 'A <b>strange</b> reply.', reason: 'It was rude' });
    expect(screen.queryByRole('dialog', { name: 'Report this reply' })).toBeNull();
  });

  it('shows the citation bold, without its DO_NOT_READ markers, and reports the reply as it was', async () => {
    const api = fakeApi({ override: ({ method, path }) => (method === 'POST' && path === PATH ? { status: 200, body: { ok: true } } : undefined) });
    const user = userEvent.setup();
    const content = 'I sailed in 1974.\n\n[DO_NOT_READ](from log.txt (chunk 2))[/DO_NOT_READ]';
    renderApp(<ReportReplyDialog personalityId="p-1" content={content} />);
    await user.click(screen.getByRole('button', { name: 'Report this reply' }));
    const dialog = screen.getByRole('dialog', { name: 'Report this reply' });
    const quote = dialog.querySelector('blockquote')!;
    expect(quote.textContent).toBe('I sailed in 1974.\n\n(from log.txt (chunk 2))');
    // A long reply scrolls in its box: the box is named and the keyboard can reach it.
    const scroller = within(dialog).getByRole('region', { name: 'The reply you are reporting' });
    expect(scroller).toHaveAttribute('tabindex', '0');
    expect(scroller).toContainElement(quote);
    expect(within(quote).getByText('(from log.txt (chunk 2))').tagName).toBe('STRONG');
    await user.click(within(dialog).getByRole('button', { name: 'Report' }));
    await screen.findByText('Thank you. The reply has been reported for review.');
    expect(api.callsTo('POST', PATH)[0]!.body).toEqual({ content, reason: '' });
  });

  it('says so when the report fails, and keeps the dialog open', async () => {
    fakeApi({ override: ({ method, path }) => (method === 'POST' && path === PATH ? { status: 500, body: { error: { code: 'INTERNAL', message: 'x' } } } : undefined) });
    const user = userEvent.setup();
    renderApp(<ReportReplyDialog personalityId="p-1" content="Reply" />);
    await user.click(screen.getByRole('button', { name: 'Report this reply' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Report' }));
    expect(await screen.findByText('Failed to report the reply. Please try again.')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Report this reply' })).toBeInTheDocument();
  });

  it('is offered on a reply, not on the greeting nor on a notice standing in for one (a withheld or failed reply)', () => {
    const message = (kind: LogMessage['kind'], content: string): LogMessage => ({ id: kind, sender: 'personality', content, timestamp: new Date().toISOString(), kind, documentReferences: [] });
    const shown = (m: LogMessage) => {
      const { unmount } = renderApp(<ol><ChatMessage message={m} personalityName="Ada" personalityId="p-1" /></ol>);
      const found = screen.queryByRole('button', { name: 'Report this reply' }) !== null;
      unmount();
      return found;
    };
    expect(shown(message('message', 'A reply.'))).toBe(true);
    expect(shown(message('greeting', 'Hello!'))).toBe(false);
    expect(shown(message('fallback', 'That reply was withheld.'))).toBe(false);
  });

  it("sends the reply's id and token with the report, so the server can keep the reply the personality gave", async () => {
    const api = fakeApi({ override: ({ method, path }) => (method === 'POST' && path === PATH ? { status: 200, body: { ok: true } } : undefined) });
    const user = userEvent.setup();
    renderApp(<ReportReplyDialog personalityId="p-1" content="Gravity bends light." messageId="m-7" replyToken="tok.sig" />);
    await user.click(screen.getByRole('button', { name: 'Report this reply' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Report' }));
    await screen.findByText('Thank you. The reply has been reported for review.');
    expect(api.callsTo('POST', PATH)[0]!.body).toEqual({ content: 'Gravity bends light.', reason: '', messageId: 'm-7', replyToken: 'tok.sig' });
  });
});
