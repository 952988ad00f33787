/**
 * While the lane sheet has unsaved changes and its screen is shown, leaving asks first (the
 * chosen FASTQ files and lane name go with the screen, and a reload or closing the window
 * loses the sheet too). Kept here in the frame, watching the store, so that the editor itself
 * needs no navigation code.
 */
import { useEffect } from 'react';
import { useAppStore } from '../../store';

export const SHEET_GUARD =
  'unsaved changes in the lane sheet. The sheet stays in this window when you leave, but the chosen FASTQ files and lane name are cleared, and reloading or closing Laneway loses the sheet: save it as .xlsx to keep it.';

/** Keeps the leave guard in step with the sheet's dirty flag and the current screen. */
export function useSheetGuard(): void {
  useEffect(() => {
    const apply = () => {
      const s = useAppStore.getState();
      const want = s.screen === 'annotation' && s.sheetDirty ? SHEET_GUARD : null;
      const mine = s.leaveGuard === SHEET_GUARD || s.leaveGuard === null;
      if (mine && s.leaveGuard !== want) s.setLeaveGuard(want);
    };
    apply();
    return useAppStore.subscribe(apply);
  }, []);
}
