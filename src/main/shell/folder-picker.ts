/** The native folder picker for watched folders (Electron only; browser mode types the path). */
import { BrowserWindow, dialog } from 'electron';

/** Asks for one existing folder; answers its path, or null when the user cancels. */
export async function pickFolder(): Promise<string | null> {
  const options: Electron.OpenDialogOptions = {
    title: 'Choose the instrument output folder to watch',
    properties: ['openDirectory', 'dontAddToRecent'],
  };
  const parent = BrowserWindow.getFocusedWindow();
  const result = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
  return result.canceled ? null : (result.filePaths[0] ?? null);
}
