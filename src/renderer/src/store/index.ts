/**
 * The one zustand store, built from a slice per concern. Components select narrowly; actions
 * live beside their state.
 */
import { create } from 'zustand';
import { createActivitySlice, type ActivitySlice } from './activity.slice';
import { createNavSlice, type NavSlice } from './nav.slice';
import { createPrefsSlice, type PrefsSlice } from './prefs.slice';
import { createSelectionSlice, type SelectionSlice } from './selection.slice';
import { createServiceSlice, type ServiceSlice } from './service.slice';
import { createSessionSlice, type SessionSlice } from './session.slice';
import { createSheetSlice, type SheetSlice } from './sheet.slice';
import { createToastsSlice, type ToastsSlice } from './toasts.slice';
import { createUploadsSlice, type UploadsSlice } from './uploads.slice';

export type AppState = ServiceSlice &
  NavSlice &
  SessionSlice &
  ToastsSlice &
  SelectionSlice &
  UploadsSlice &
  SheetSlice &
  ActivitySlice &
  PrefsSlice;

export const useAppStore = create<AppState>()((...a) => ({
  ...createServiceSlice(...a),
  ...createNavSlice(...a),
  ...createSessionSlice(...a),
  ...createToastsSlice(...a),
  ...createSelectionSlice(...a),
  ...createUploadsSlice(...a),
  ...createSheetSlice(...a),
  ...createActivitySlice(...a),
  ...createPrefsSlice(...a),
}));

export type { Screen } from './nav.slice';
export { SCREENS } from './nav.slice';
