/** Short messages about finished actions and failures, shown in one live region. */
import type { StateCreator } from 'zustand';

export interface Toast {
  id: number;
  tone: 'ok' | 'bad' | 'info';
  message: string;
  /** What to do next, for failures. */
  remedy?: string;
}

export interface ToastsSlice {
  toasts: Toast[];
  pushToast(toast: Omit<Toast, 'id'>): void;
  dismissToast(id: number): void;
}

let nextId = 1;

export const createToastsSlice: StateCreator<ToastsSlice, [], [], ToastsSlice> = (set) => ({
  toasts: [],
  pushToast: (toast) => set((s) => ({ toasts: [...s.toasts.slice(-4), { ...toast, id: nextId++ }] })),
  dismissToast: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
});
