// What a provider said when it refused a request, fit to show a person or write to the log: the
// message out of its JSON error body (OpenAI's {error:{message}}, {error:"..."}, {message}, or
// ElevenLabs' {detail:{message}}), shortened, with anything that looks like a key or token
// replaced. OpenAI masks keys in its own errors; compatible servers and proxies often do not
// ("Incorrect API key provided: sk-..."), and these texts reach anonymous visitors' screens.
const SECRET_LIKE = [
  // Prefixed keys: sk-..., rk-..., pk-... (OpenAI and look-alikes).
  /\b(sk|rk|pk)-[A-Za-z0-9_\-]{6,}/gi,
  // Authorization: Bearer <token>.
  /\bbearer\s+[A-Za-z0-9_\-.=]{8,}/gi,
  // key=..., token: ..., secret ... followed by something with a digit in it (not "key provided").
  /\b(key|token|secret)[-_ :=]+(?=[A-Za-z0-9_\-.]*\d)[A-Za-z0-9_\-.]{8,}/gi,
  // Long runs of letters and digits with at least one digit (hex keys, base64 tokens).
  /\b(?=[A-Za-z0-9_\-]*\d)[A-Za-z0-9_\-]{24,}\b/g,
];

export function redactSecrets(text: string): string {
  return SECRET_LIKE.reduce((out, pattern) => out.replace(pattern, '[redacted]'), text);
}

export function providerErrorText(body: string, max = 200): string {
  let message = body;
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown; detail?: { message?: unknown } | string };
    const found =
      typeof parsed.error === 'string'
        ? parsed.error
        : (parsed.error?.message ?? parsed.message ?? (typeof parsed.detail === 'string' ? parsed.detail : parsed.detail?.message));
    if (typeof found === 'string') message = found;
  } catch {
    /* plain text */
  }
  return redactSecrets(message.replace(/\s+/g, ' ')).slice(0, max).trim();
}
