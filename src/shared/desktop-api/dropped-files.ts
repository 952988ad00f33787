/**
 * Dropped files' paths, outside the IPC contract: a sandboxed renderer's File has no `path`;
 * Electron gives it only through `webUtils.getPathForFile` in the preload, which exposes this
 * helper as `window.lanewayFiles`. Browser mode has none (the renderer shows a path field).
 */

/** What the preload exposes as `window.lanewayFiles` (F is the DOM File). */
export interface LanewayFiles<F = unknown> {
  /** The absolute path of a dropped file, or '' when it has none (a file made in memory). */
  pathFor(file: F): string;
}

/** The helper over Electron's webUtils (passed in: this module stays free of electron). */
export function lanewayFilesOver<F>(webUtils: { getPathForFile(file: F): string }): LanewayFiles<F> {
  return { pathFor: (file) => webUtils.getPathForFile(file) };
}
