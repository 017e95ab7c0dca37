// A personality with a picture (a PNG card's) shows it beside its replies and in "About {name}";
// without one, the initial letter stays.
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { ChatMessage } from './chat-message';
import { AboutCard } from './about-card';
import { personalityAvatarUrl } from '../../../lib/personality-avatar';
import { greetingMessage } from '../utils/log-message';

const reply = greetingMessage('Ahoy!');

describe('personality avatar in the conversation', () => {
  it('shows the picture beside a reply when there is one, the initial letter otherwise', () => {
    const url = personalityAvatarUrl({ id: 'p 1', hasAvatar: true, updatedAt: '2026-01-01T00:00:00.000Z' });
    expect(url).toBe('/api/personalities/p%201/avatar?v=2026-01-01T00%3A00%3A00.000Z');
    const { unmount } = render(<ol><ChatMessage message={reply} personalityName="Mirella" avatarUrl={url} /></ol>);
    expect(screen.getByTestId('reply-avatar')).toHaveAttribute('src', url);
    expect(screen.queryByText('M')).toBeNull();
    unmount();

    render(<ol><ChatMessage message={reply} personalityName="Mirella" avatarUrl={personalityAvatarUrl({ id: 'p', hasAvatar: false, updatedAt: 'x' })} /></ol>);
    expect(screen.queryByTestId('reply-avatar')).toBeNull();
    expect(screen.getByText('M')).toBeInTheDocument();
  });

  it('shows the picture in "About {name}"', () => {
    render(<AboutCard name="Mirella" description="A sky pirate." avatarUrl="/api/personalities/p/avatar?v=1" />);
    expect(screen.getByTestId('about-avatar')).toHaveAttribute('src', '/api/personalities/p/avatar?v=1');
    expect(screen.getByText('About Mirella')).toBeInTheDocument();
  });
});
