// A version 4 UUID's text from 16 bytes: the page's random turn ids (crypto.randomUUID exists only
// on secure pages, getRandomValues everywhere) and the server's ids derived from a hash.

/** Sets the version (4) and variant (RFC 9562) bits of the first 16 bytes and formats them. */
export function uuidV4FromBytes(bytes: Uint8Array): string {
  if (bytes.length < 16) throw new Error('a UUID needs 16 bytes');
  const b = Uint8Array.from(bytes.subarray(0, 16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
