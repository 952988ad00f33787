/**
 * The Electron-only pieces outside the IPC contract, with the electron module mocked
 * (MACHINE.md: no Electron binary here): the watched-folder picker and the preload's
 * dropped-file path helper; and the core's answer where there is no picker (browser mode).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

const showOpenDialog = vi.fn();
const getPathForFile = vi.fn();
let focused: object | null = null;

vi.mock('electron', () => ({
  BrowserWindow: { getFocusedWindow: () => focused },
  dialog: { showOpenDialog: (...args: unknown[]) => showOpenDialog(...args) },
  webUtils: { getPathForFile: (f: unknown) => getPathForFile(f) },
}));

import { webUtils } from 'electron';
import { coreHandlers, type CoreParts } from '../../../src/main/core/core-handlers';
import { DesktopFailure } from '../../../src/main/core/dispatcher';
import { pickFolder } from '../../../src/main/shell/folder-picker';
import { lanewayFilesOver } from '../../../src/shared/desktop-api/dropped-files';

describe('folder picker and dropped-file paths', () => {
  beforeEach(() => {
    showOpenDialog.mockReset();
    getPathForFile.mockReset();
    focused = null;
  });

  it('asks for one folder, over the focused window when there is one', async () => {
    focused = { id: 1 };
    showOpenDialog.mockResolvedValue({ canceled: false, filePaths: ['/mnt/miseq/runs'] });
    await expect(pickFolder()).resolves.toBe('/mnt/miseq/runs');
    expect(showOpenDialog).toHaveBeenCalledWith(focused, {
      title: 'Choose the instrument output folder to watch',
      properties: ['openDirectory', 'dontAddToRecent'],
    });
  });

  it('answers null when the user cancels', async () => {
    showOpenDialog.mockResolvedValue({ canceled: true, filePaths: [] });
    await expect(pickFolder()).resolves.toBeNull();
    expect(showOpenDialog.mock.calls[0]).toHaveLength(1); // no window: an app-modal dialog
  });

  it('gives a dropped file its path through webUtils', () => {
    const file = { name: 'a.fastq.gz' } as unknown as File;
    getPathForFile.mockReturnValue('/data/a.fastq.gz');
    expect(lanewayFilesOver<File>(webUtils).pathFor(file)).toBe('/data/a.fastq.gz');
    expect(getPathForFile).toHaveBeenCalledWith(file);
  });

  it('core: pick-folder uses the shell picker, and answers an error as data without one', async () => {
    const parts = {} as CoreParts;
    const browser = coreHandlers(parts, async () => {});
    const err = await Promise.resolve(browser['watchers:pick-folder']({})).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DesktopFailure);
    expect((err as DesktopFailure).data).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'This window has no folder picker (browser mode): type the folder path instead',
    });
    const electron = coreHandlers({ ...parts, pickFolder: async () => '/mnt/x' }, async () => {});
    await expect(electron['watchers:pick-folder']({})).resolves.toEqual({ path: '/mnt/x' });
  });
});
