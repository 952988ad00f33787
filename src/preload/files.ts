/**
 * Dropped files' paths, outside the IPC contract: a sandboxed renderer's File has no `path`;
 * Electron gives it only through webUtils in the preload.
 */
import { webUtils } from 'electron';

/** What the preload exposes as `window.lanewayFiles`. */
export interface LanewayFiles {
  /** The absolute path of a dropped File, or '' when it has none (a file made in memory). */
  pathFor(file: File): string;
}

/** The helper, bound to Electron's webUtils. */
export function lanewayFiles(): LanewayFiles {
  return { pathFor: (file) => webUtils.getPathForFile(file) };
}
