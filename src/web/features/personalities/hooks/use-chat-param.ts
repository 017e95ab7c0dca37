// Which personality's conversation is open, kept in the URL (?chat={id}) so reload, share and
// the browser's back/forward buttons all work.
import { useCallback } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';

const PARAM = 'chat';

interface ChatLocationState {
  /** Set when the dashboard opened the chat, so "back" can pop that history entry. */
  openedFromDashboard?: boolean;
}

export function useChatParam() {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const chatId = params.get(PARAM);

  const openChat = useCallback(
    (id: string) => {
      const next = new URLSearchParams(params);
      next.set(PARAM, id);
      setParams(next, { state: { openedFromDashboard: true } satisfies ChatLocationState });
    },
    [params, setParams],
  );

  const closeChat = useCallback(() => {
    if ((location.state as ChatLocationState | null)?.openedFromDashboard) {
      navigate(-1);
      return;
    }
    // Arrived by a link or reload: there is no dashboard entry to go back to, so replace.
    const next = new URLSearchParams(params);
    next.delete(PARAM);
    setParams(next, { replace: true });
  }, [location.state, navigate, params, setParams]);

  return { chatId, openChat, closeChat };
}
