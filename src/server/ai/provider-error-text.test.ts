import { describe, expect, it } from 'vitest';
import { providerErrorText, redactSecrets } from './provider-error-text';

describe('provider error text', () => {
  it('takes the message out of the usual JSON error bodies', () => {
    expect(providerErrorText('{"error":{"message":"The model is overloaded"}}')).toBe('The model is overloaded');
    expect(providerErrorText('{"error":"Bad gateway"}')).toBe('Bad gateway');
    expect(providerErrorText('{"message":"Too many requests"}')).toBe('Too many requests');
    expect(providerErrorText('{"detail":{"status":"quota_exceeded","message":"You have 0 credits left"}}')).toBe('You have 0 credits left');
    expect(providerErrorText('<html>502 Bad Gateway</html>\n\n')).toBe('<html>502 Bad Gateway</html>');
    expect(providerErrorText('x'.repeat(500))).toHaveLength(200);
  });

  it('never passes on a key or token', () => {
    const said = providerErrorText('{"error":{"message":"Incorrect API key provided: sk-openai-secret-123456. You can find your API key at https://platform.openai.com/account/api-keys."}}');
    expect(said).not.toContain('sk-openai-secret-123456');
    expect(said).not.toContain('secret-123456');
    expect(said).toContain('Incorrect API');
    expect(redactSecrets('Authorization: Bearer abcdefghijklmnop')).not.toContain('abcdefghijklmnop');
    expect(redactSecrets('subscription 0123456789abcdef0123456789abcdef is invalid')).not.toContain('0123456789abcdef');
    expect(redactSecrets('Access denied due to invalid subscription key.')).toBe('Access denied due to invalid subscription key.');
    expect(redactSecrets('The voice could not be found')).toBe('The voice could not be found');
  });
});
