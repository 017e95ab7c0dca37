// Pre-opened agent connections (spec sections 4 and 9: a pool of at most 3, the oldest evicted).
// What is kept ready is the signed URL: fetching it is the server round trip to ElevenLabs that
// dominates connecting. The websocket itself is opened on Start, because ElevenLabs starts the
// conversation (and its billing) the moment the socket opens. Each URL is used once: an entry is
// taken on Start and a fresh one fetched after the call.
//
// Issuing a URL is where the server checks that this person may talk with the personality;
// ElevenLabs then accepts the URL for 15 minutes whatever happened since. So a kept URL is used
// only while it is fresh (AGENT_URL_FRESH_MS): one kept longer could start a call with a
// personality its owner unshared or deleted, or an admin made private, in the meantime. Start
// then asks the server again (which checks again), at the cost of that one round trip.
import { requestSignedUrl, type AgentSession } from './open-mic-api';

export const AGENT_POOL_MAX = 3;
/**
 * How long after it was requested a kept URL is still used (and shown as "Pre-loaded"). The URL is
 * fetched as the Open Mic tab opens, and most calls are started within seconds of that, so these
 * keep the pool's saving; a call started later pays one round trip, and in exchange no call starts
 * on an access check older than this. (A call that does is ended anyway by the first line the
 * server refuses, but it would have been opened, and billed, first.) Measured from the request,
 * before the server's check, so never shorter than the real age of the check.
 */
export const AGENT_URL_FRESH_MS = 30_000;

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
    if (kept && this.fresh(kept)) {
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

  /** A kept URL if it is fresh (and removes it: each is used once, a stale one is dropped), or undefined. */
  async take(key: string): Promise<AgentSession | undefined> {
    const entry = this.entries.get(key);
    this.entries.delete(key);
    if (!entry || !this.fresh(entry)) return undefined;
    return entry.url.catch(() => undefined);
  }

  /** Whether a fresh URL for this key has already arrived (the "Pre-loaded" badge). */
  ready(key: string): boolean {
    const entry = this.entries.get(key);
    return Boolean(entry?.ready && this.fresh(entry));
  }

  private fresh(entry: Entry): boolean {
    return this.now() - entry.fetchedAt < AGENT_URL_FRESH_MS;
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
