import { describe, expect, it } from 'vitest';
import type { ProfileList } from '../../../src/shared/desktop-api/auth-schemas';
import { screensBaseUrl } from '../../../src/renderer/src/service-client/screens-address';

const EMBEDDED = 'http://127.0.0.1:47310';
const LAB = 'https://laneway.lab.example:8443';

function list(active: 'local' | 'lab'): ProfileList {
  return {
    active_id: active,
    profiles: [
      { id: 'local', name: 'This computer', kind: 'embedded', url: null, username: 'tech', active: active === 'local' },
      { id: 'lab', name: 'Lab service', kind: 'remote', url: LAB, username: null, active: active === 'lab' },
    ],
  };
}

describe("the screens' service address", () => {
  it("is the token's origin whenever there is a token", () => {
    expect(screensBaseUrl(LAB, list('lab'), EMBEDDED)).toBe(LAB);
    expect(screensBaseUrl(EMBEDDED, list('local'), EMBEDDED)).toBe(EMBEDDED);
  });

  it("is a signed-out lab-service profile's own address, never this computer's service", () => {
    expect(screensBaseUrl(null, list('lab'), EMBEDDED)).toBe(LAB);
  });

  it('is the embedded service for the embedded profile, and before the profiles are known', () => {
    expect(screensBaseUrl(null, list('local'), EMBEDDED)).toBe(EMBEDDED);
    expect(screensBaseUrl(null, null, EMBEDDED)).toBe(EMBEDDED);
    expect(screensBaseUrl(null, null, null)).toBeNull();
  });
});
