// Pre-opened agent connections (spec sections 4 and 9: a pool of at most 3, the oldest evicted).
// What is kept ready is the signed URL: fetching it is the server round trip to ElevenLabs that
// dominates connecting. The websocket itself is opened on Start, because ElevenLabs starts the
// conversation (and its billing) the moment the socket opens. Signed URLs are valid for 15
// minutes and used once: an entry is taken on Start and a fresh one fetched after the call.
import { requestSignedUrl, type AgentSession } from './open-mic-api';

export const AGENT_POOL_MAX = 3;
/** Under ElevenLabs' 15-minute validity, with room for a slow connect. */
export const AGENT_URL_TTL_MS = 10 * 60_000;

interface Entry {
  url: Promise<AgentSession>;
  fetchedAt: number;
  /** The URL has arrived. */
  ready: boolean;
}

export class AgentUrlPool {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly fetchUrl: (personalityId: string) => Promise<AgentSession> = requestSignedUrl,
    private readonly now: () => number = () => Date.now(),
    private readonly max = AGENT_POOL_MAX,
  ) {}

  /** Starts fetching a URL for this personality unless a fresh one is kept (then it becomes the newest). */
  preload(key: string, personalityId: string): void {
    const kept = this.entries.get(key);
    this.entries.delete(key);
    if (kept && this.now() - kept.fetchedAt < AGENT_URL_TTL_MS) {
      this.entries.set(key, kept);
      return;
    }
    const url = this.fetchUrl(personalityId);
    const entry: Entry = { url, fetchedAt: this.now(), ready: false };
    // A failed preload is forgotten; Start asks again and shows the error then.
    url.then(
      () => void (entry.ready = true),
      () => this.entries.get(key) === entry && this.entries.delete(key),
    );
    this.entries.set(key, entry);
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  /** A kept URL (and removes it: each is used once), or undefined. */
  async take(key: string): Promise<AgentSession | undefined> {
    const entry = this.entries.get(key);
    this.entries.delete(key);
    if (!entry || this.now() - entry.fetchedAt >= AGENT_URL_TTL_MS) return undefined;
    return entry.url.catch(() => undefined);
  }

  /** Whether a fresh URL for this key has already arrived (the "Pre-loaded" badge). */
  ready(key: string): boolean {
    const entry = this.entries.get(key);
    return Boolean(entry?.ready && this.now() - entry.fetchedAt < AGENT_URL_TTL_MS);
  }

  keys(): string[] {
    return [...this.entries.keys()];
  }

  clear(): void {
    this.entries.clear();
  }
}

/** One pool for the page: going back to a recently opened personality finds its URL ready. */
export const agentUrlPool = new AgentUrlPool();
