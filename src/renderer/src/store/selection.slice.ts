/** Samples the technician picked in one screen for use in another (a project, a launch). */
import type { StateCreator } from 'zustand';

export interface SelectionSlice {
  selectedSampleIds: number[];
  /** A completed execution to chain the next launch from. */
  upstreamExecutionId: number | null;
  setSelectedSamples(ids: number[]): void;
  toggleSample(id: number): void;
  setUpstreamExecution(id: number | null): void;
}

export const createSelectionSlice: StateCreator<SelectionSlice, [], [], SelectionSlice> = (set) => ({
  selectedSampleIds: [],
  upstreamExecutionId: null,
  setSelectedSamples: (selectedSampleIds) => set({ selectedSampleIds }),
  toggleSample: (id) =>
    set((s) => ({
      selectedSampleIds: s.selectedSampleIds.includes(id)
        ? s.selectedSampleIds.filter((x) => x !== id)
        : [...s.selectedSampleIds, id],
    })),
  setUpstreamExecution: (upstreamExecutionId) => set({ upstreamExecutionId }),
});
