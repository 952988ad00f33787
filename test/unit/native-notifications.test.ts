/**
 * The shell's native notifications with electron mocked (it cannot run here): a
 * `notifications:new` event of the real dispatcher becomes one `new Notification(...)` shown,
 * and a click brings the window forward; other events show nothing.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

const shown: Array<{ options: { title: string; body: string }; click?: () => void }> = [];
let supported = true;

vi.mock('electron', () => {
  class Notification {
    static isSupported() {
      return supported;
    }
    private entry: (typeof shown)[number];
    constructor(options: { title: string; body: string }) {
      this.entry = { options };
    }
    on(name: string, fn: () => void) {
      if (name === 'click') this.entry.click = fn;
    }
    show() {
      shown.push(this.entry);
    }
  }
  return { Notification };
});

import { createDispatcher } from '../../src/main/core/dispatcher';
import { showNativeNotifications } from '../../src/main/shell/native-notifications';

const notice = {
  id: 4,
  kind: 'execution_ended',
  subject: 'Execution Nightly QC failed',
  body: 'Your execution "Nightly QC" (QC 1.0.0, id 9) failed at 2026-11-24T10:00:00.000Z.\nReason: exit code 3',
  data: { execution_id: 9, status: 'failed' },
  created: '2026-11-24T10:00:00.000Z',
};

describe('native notifications in the Electron shell', () => {
  beforeEach(() => {
    shown.length = 0;
    supported = true;
  });

  it('shows each new service notification natively; a click focuses the window', () => {
    const dispatcher = createDispatcher({});
    const window = { isDestroyed: () => false, isMinimized: () => true, restore: vi.fn(), focus: vi.fn() };
    const off = showNativeNotifications(dispatcher, () => window as never);
    dispatcher.emit('notifications:new', notice);
    expect(shown.map((n) => n.options)).toEqual([
      {
        title: 'Execution Nightly QC failed',
        body: 'Your execution "Nightly QC" (QC 1.0.0, id 9) failed at 2026-11-24T10:00:00.000Z.',
      },
    ]);
    shown[0]!.click!();
    expect(window.restore).toHaveBeenCalled();
    expect(window.focus).toHaveBeenCalled();
    off();
    dispatcher.emit('notifications:new', { ...notice, id: 5 });
    expect(shown).toHaveLength(1);
  });

  it('shows nothing for other events, or where the OS has no notifications', () => {
    const dispatcher = createDispatcher({});
    showNativeNotifications(dispatcher, () => null);
    dispatcher.emit('service:status-changed', {
      mode: 'embedded',
      state: 'running',
      url: 'http://127.0.0.1:1',
      version: '1',
      error: null,
      since: '2026-11-24T10:00:00.000Z',
    });
    supported = false;
    dispatcher.emit('notifications:new', notice);
    expect(shown).toEqual([]);
  });
});
