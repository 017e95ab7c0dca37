// While a reply streams in, only that reply is drawn again: the rest of a long conversation keeps
// its rendered Markdown (parsing it for every word held an open-mic call's audio back), even though
// the parent passes a new reply action each time.
import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { LogMessage } from '../utils/log-message';

const parsed: string[] = [];
vi.mock('react-markdown', async (original) => {
  const actual = await original<typeof import('react-markdown')>();
  const Markdown = (props: Parameters<typeof actual.default>[0]) => {
    parsed.push(String(props.children));
    return actual.default(props);
  };
  return { ...actual, default: Markdown };
});

const { MessageLog } = await import('./message-log');

const reply = (id: string, content: string, streaming = false): LogMessage => ({
  id,
  sender: 'personality',
  content,
  timestamp: new Date(0).toISOString(),
  kind: 'message',
  documentReferences: [],
  streaming,
});

describe('MessageLog', () => {
  it('draws again only the message that changed', async () => {
    const earlier = Array.from({ length: 5 }, (_, i) => reply(`r${i}`, `Earlier reply number ${i}.`));
    const first = vi.fn();
    const action = (onClick: () => void) => (m: LogMessage) => <button onClick={onClick}>Replay {m.id}</button>;
    const props = { personalityName: 'Ada', busy: true };
    const view = render(<MessageLog {...props} messages={[...earlier, reply('s', 'Once', true)]} replyAction={action(first)} />);
    expect(parsed.length).toBe(6);
    parsed.length = 0;
    const second = vi.fn();
    view.rerender(<MessageLog {...props} messages={[...earlier, reply('s', 'Once upon', true)]} replyAction={action(second)} />);
    view.rerender(<MessageLog {...props} messages={[...earlier, reply('s', 'Once upon a time.', true)]} replyAction={action(second)} />);
    expect(parsed).toEqual(['Once upon', 'Once upon a time.']);
    expect(screen.getByRole('log')).toHaveTextContent('Once upon a time.');
    // The finished replies keep their action; the streaming one has none until it is finished.
    expect(screen.getAllByRole('button', { name: /^Replay r\d$/ })).toHaveLength(5);
    await userEvent.click(screen.getByRole('button', { name: 'Replay r0' }));
    expect(first).toHaveBeenCalledTimes(1);
    view.rerender(<MessageLog {...props} messages={[...earlier, reply('s', 'Once upon a time.')]} replyAction={action(second)} />);
    expect(screen.getByRole('button', { name: 'Replay s' })).toBeInTheDocument();
  });

  it('says "{name} is replying" in a status outside the busy log, so it is announced', () => {
    const view = render(<MessageLog personalityName="Ada" busy messages={[reply('r0', 'Hello.'), reply('s', '', true)]} />);
    const log = screen.getByRole('log');
    expect(log).toHaveAttribute('aria-busy', 'true');
    const replying = screen.getByText('Ada is replying');
    expect(replying).toHaveAttribute('role', 'status');
    expect(log).not.toContainElement(replying);
    expect(replying.closest('[aria-busy="true"]')).toBeNull();
    // The first words arrive: nothing more to say until the reply is finished (the log then speaks).
    view.rerender(<MessageLog personalityName="Ada" busy messages={[reply('r0', 'Hello.'), reply('s', 'Once', true)]} />);
    expect(screen.queryByText('Ada is replying')).toBeNull();
    expect(screen.getAllByRole('status')).toHaveLength(1);
  });

  it('lets a message set its own direction (dir="auto": it may be right-to-left)', () => {
    const mine: LogMessage = { ...reply('u1', 'مرحبا بالعالم'), sender: 'user' };
    render(<MessageLog personalityName="Ada" busy={false} messages={[mine, reply('r1', 'שלום עולם')]} />);
    expect(screen.getByText('مرحبا بالعالم').closest('[dir]')).toHaveAttribute('dir', 'auto');
    expect(screen.getByText('שלום עולם').closest('[dir]')).toHaveAttribute('dir', 'auto');
  });
});
