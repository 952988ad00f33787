/** Samples the technician picked in one screen for use in another (a project, a launch). */
import type { StateCreator } from 'zustand';

export interface SelectionSlice {
  selectedSampleIds: number[];
  setSelectedSamples(ids: number[]): void;
  toggleSample(id: number): void;
}

export const createSelectionSlice: StateCreator<SelectionSlice, [], [], SelectionSlice> = (set) => ({
  selectedSampleIds: [],
  setSelectedSamples: (selectedSampleIds) => set({ selectedSampleIds }),
  toggleSample: (id) =>
    set((s) => ({
      selectedSampleIds: s.selectedSampleIds.includes(id)
        ? s.selectedSampleIds.filter((x) => x !== id)
        : [...s.selectedSampleIds, id],
    })),
});
