/**
 * The one zustand store, built from a slice per feature. Components select narrowly; actions
 * live beside their state.
 */
import { create } from 'zustand';
import { createServiceSlice, type ServiceSlice } from './service.slice';

export type AppState = ServiceSlice;

export const useAppStore = create<AppState>()((...a) => ({
  ...createServiceSlice(...a),
}));
