// Personalities made through the API (the UI flows that create them live in personalities.spec.ts).
import { expect, type APIRequestContext } from '@playwright/test';
import { originHeaders } from './accounts';

export interface PersonalityBody {
  name: string;
  description?: string;
  behaviorInstructions?: string;
  voiceProvider?: 'default' | 'openai' | 'elevenlabs';
  voice?: string | null;
  agentId?: string;
  enablePhoneticTranscription?: boolean;
}

export interface PersonalityAnswer {
  id: string;
  name: string;
  description: string | null;
  behaviorInstructions: string | null;
  voiceProvider: string;
  voice: string | null;
  agentId: string | null;
  sharingType: string;
  isOwner: boolean;
  voiceSettings: Record<string, unknown> | null;
}

let counter = 0;
/** A personality name no other flow uses. */
export function uniqueName(base: string): string {
  counter += 1;
  return `${base} ${Date.now().toString(36).slice(-4)}${counter}`;
}

export async function createPersonalityViaApi(request: APIRequestContext, body: PersonalityBody): Promise<PersonalityAnswer> {
  const res = await request.post('/api/personalities', { data: body, headers: originHeaders() });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { personality: PersonalityAnswer }).personality;
}

export async function listPersonalitiesViaApi(request: APIRequestContext): Promise<PersonalityAnswer[]> {
  const res = await request.get('/api/personalities');
  expect(res.status()).toBe(200);
  return ((await res.json()) as { personalities: PersonalityAnswer[] }).personalities;
}

/** Sets the sharing level; public succeeds only when `request` is signed in as an admin who owns it. */
export async function setSharingViaApi(request: APIRequestContext, id: string, sharingType: 'private' | 'shared' | 'public') {
  const res = await request.put(`/api/personalities/${id}/sharing`, { data: { sharingType }, headers: originHeaders() });
  expect(res.status(), await res.text()).toBe(200);
}
