/** What happened on this computer while the app ran (runs, uploads, executions), newest first. */
import type { StateCreator } from 'zustand';

export interface ActivityItem {
  id: number;
  at: string;
  tone: 'ok' | 'bad' | 'info';
  title: string;
  body: string;
  /** The service notification this repeats (an execution that ended): listed under "From the service" only. */
  serviceId?: number;
}

export interface ActivitySlice {
  activity: ActivityItem[];
  addActivity(item: Omit<ActivityItem, 'id' | 'at'>): void;
}

let nextId = 1;
const KEEP = 200;

export const createActivitySlice: StateCreator<ActivitySlice, [], [], ActivitySlice> = (set) => ({
  activity: [],
  addActivity: (item) =>
    set((s) => ({ activity: [{ ...item, id: nextId++, at: new Date().toISOString() }, ...s.activity].slice(0, KEEP) })),
});
