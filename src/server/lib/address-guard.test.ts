import { describe, expect, it } from 'vitest';
import { isAllowedAddress } from './address-guard';

describe('address guard', () => {
  it('allows public unicast addresses', () => {
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '[2a00:1450:4007:80b::200e]']) expect(isAllowedAddress(a, false), a).toBe(true);
  });

  it('refuses private, loopback, link-local, metadata and reserved addresses', () => {
    for (const a of [
      '127.0.0.1', '127.1.2.3', '10.0.0.1', '172.16.5.4', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1',
      '0.0.0.0', '224.0.0.1', '255.255.255.255', '198.18.0.1', '::1', '::', 'fe80::1', 'fc00::1', 'fd00:ec2::254',
      '::ffff:127.0.0.1', '::ffff:7f00:1', '0:0:0:0:0:ffff:a00:1', '::7f00:1', '::ffff:a9fe:a9fe', '64:ff9b::a9fe:a9fe', '2002:7f00:1::', 'ff02::1', 'not-an-ip',
    ]) {
      expect(isAllowedAddress(a, false), a).toBe(false);
    }
  });

  it('allows loopback only with the test allowance, and nothing else private', () => {
    expect(isAllowedAddress('127.0.0.1', true)).toBe(true);
    expect(isAllowedAddress('::1', true)).toBe(true);
    expect(isAllowedAddress('::ffff:127.0.0.1', true)).toBe(true);
    expect(isAllowedAddress('10.0.0.1', true)).toBe(false);
    expect(isAllowedAddress('169.254.169.254', true)).toBe(false);
  });
});
