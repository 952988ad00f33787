/**
 * The technician's own preferences on this computer (which events notify, whether the desktop
 * shows them too), kept in localStorage so that they survive reloads and restarts.
 */
import type { StateCreator } from 'zustand';

export const NOTIFY_KINDS = ['runs', 'uploads', 'lanes', 'executions'] as const;
export type NotifyKind = (typeof NOTIFY_KINDS)[number];

export interface Prefs {
  /** Event kinds that notify; every kind does unless turned off. */
  notify: Record<NotifyKind, boolean>;
  /** Also as desktop notifications (Electron), not only in the app's list. */
  desktopNotifications: boolean;
}

export interface PrefsSlice {
  prefs: Prefs;
  setPrefs(patch: Partial<Prefs>): void;
}

const KEY = 'laneway.prefs';
const DEFAULTS: Prefs = {
  notify: { runs: true, uploads: true, lanes: true, executions: true },
  desktopNotifications: true,
};

function load(): Prefs {
  try {
    const raw = typeof localStorage === 'undefined' ? null : localStorage.getItem(KEY);
    if (!raw) return DEFAULTS;
    const p = JSON.parse(raw) as Partial<Prefs>;
    return { ...DEFAULTS, ...p, notify: { ...DEFAULTS.notify, ...(p.notify ?? {}) } };
  } catch {
    // A damaged entry is no reason to fail start-up: fall back to the defaults.
    return DEFAULTS;
  }
}

export const createPrefsSlice: StateCreator<PrefsSlice, [], [], PrefsSlice> = (set, get) => ({
  prefs: load(),
  setPrefs: (patch) => {
    const prefs = { ...get().prefs, ...patch };
    set({ prefs });
    try {
      localStorage.setItem(KEY, JSON.stringify(prefs));
    } catch {
      // Storage full or disabled: the choice holds for this session.
    }
  },
});
