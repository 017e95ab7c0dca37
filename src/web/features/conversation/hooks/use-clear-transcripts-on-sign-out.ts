// An anonymous visitor's transcript is kept in the tab (sessionStorage) so a reload does not lose
// it. Once someone signs out, the tab may be handed to the next person: every anonymous transcript
// kept in it goes, so they never see an earlier visitor's conversation. A visitor who stays
// anonymous keeps theirs.
import { useState } from 'react';
import { chatStorage } from '../utils/chat-storage';

export function useClearAnonymousTranscriptsOnSignOut(viewerId: string | null) {
  const [previous, setPrevious] = useState(viewerId);
  if (previous !== viewerId) {
    // During render, not in an effect: the anonymous chat that replaces the signed-in one reads
    // the stored transcript as it first renders, which is before any effect of ours would run.
    // Removing keys twice (a repeated render) is harmless.
    if (previous !== null && viewerId === null) chatStorage.clearAllTranscripts();
    setPrevious(viewerId);
  }
}
