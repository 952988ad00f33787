/** Which screen is showing, with its parameters (an execution id, a sample id ...). */
import type { StateCreator } from 'zustand';

export const SCREENS = [
  'runs',
  'uploads',
  'watchers',
  'annotation',
  'samples',
  'projects',
  'groups',
  'pipelines',
  'executions',
  'notifications',
  'account',
] as const;
export type Screen = (typeof SCREENS)[number];

export interface NavSlice {
  screen: Screen;
  /** Screen parameters, e.g. `{ id: 4 }` for one execution's dashboard. */
  params: Record<string, string | number>;
  navigate(screen: Screen, params?: Record<string, string | number>): void;
}

export const createNavSlice: StateCreator<NavSlice, [], [], NavSlice> = (set) => ({
  screen: 'samples',
  params: {},
  navigate: (screen, params = {}) => set({ screen, params }),
});
