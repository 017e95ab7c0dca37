// Where the log is scrolled: it leaves a reader who scrolled up to reread alone while replies come
// in, brings them down when they send, and "Jump to latest" takes them there on request.
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { MessageLog } from './message-log';
import type { LogMessage } from '../utils/log-message';

const message = (id: string, sender: 'user' | 'personality', content: string): LogMessage => ({
  id,
  sender,
  content,
  timestamp: new Date(2026, 0, 1).toISOString(),
  kind: 'message',
  documentReferences: [],
});

const history = Array.from({ length: 30 }, (_, i) => message(`m${i}`, i % 2 ? 'personality' : 'user', `Message ${i}`));

/** jsdom lays nothing out: the log gets a fixed content height and viewport. */
function withLayout(el: HTMLElement, scrollHeight: () => number, clientHeight = 200) {
  Object.defineProperty(el, 'scrollHeight', { configurable: true, get: scrollHeight });
  Object.defineProperty(el, 'clientHeight', { configurable: true, get: () => clientHeight });
}

function setup() {
  let height = 3000;
  const view = render(<MessageLog messages={history} personalityName="Ada" busy={false} />);
  const log = screen.getByRole('log', { name: 'Conversation with Ada' });
  withLayout(log, () => height);
  const show = (messages: LogMessage[]) => {
    height += 400;
    view.rerender(<MessageLog messages={messages} personalityName="Ada" busy={false} />);
  };
  const scrollUpTo = (top: number) => {
    log.scrollTop = top;
    fireEvent.scroll(log);
  };
  return { log, show, scrollUpTo, height: () => height };
}

describe('message log scrolling', () => {
  it('leaves a reader who scrolled up alone while a reply arrives, and offers "Jump to latest"', async () => {
    const { log, show, scrollUpTo, height } = setup();
    scrollUpTo(500);
    expect(screen.getByRole('button', { name: 'Jump to latest' })).toBeInTheDocument();
    show([...history, message('r1', 'personality', 'A new reply')]);
    expect(log.scrollTop).toBe(500);

    await userEvent.click(screen.getByRole('button', { name: 'Jump to latest' }));
    expect(log.scrollTop).toBe(height());
    expect(screen.queryByRole('button', { name: 'Jump to latest' })).not.toBeInTheDocument();
    expect(log).toHaveFocus();
  });

  it('brings the person down to their message when they send one, even after scrolling up', () => {
    const { log, show, scrollUpTo, height } = setup();
    scrollUpTo(500);
    show([...history, message('u-new', 'user', 'My new question')]);
    expect(log.scrollTop).toBe(height());
    expect(screen.queryByRole('button', { name: 'Jump to latest' })).not.toBeInTheDocument();
  });

  it('shows no jump button while the reader is at the bottom', () => {
    const { scrollUpTo } = setup();
    scrollUpTo(3000 - 200 - 10);
    expect(screen.queryByRole('button', { name: 'Jump to latest' })).not.toBeInTheDocument();
  });
});
