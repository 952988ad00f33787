/**
 * The desktop core's public entry: everything the Electron shell and the CLI may use. Both
 * compose the core from here and nothing else (lint refuses deeper imports), so the core can
 * change inside without touching them. Browser mode, the core's WebSocket transport under plain
 * Node, is part of the core and is started from here too.
 */
export * from './headless';
export { startBrowserHost, type BrowserHost } from './browser/browser-host';
export { childServiceLauncher } from './child-service-launcher';
export { createDesktopCore, type DesktopCore, type DesktopCoreOptions } from './desktop-core';
export type { Dispatcher } from './dispatcher';
export { probeElectron } from './electron-probe';
export { checkedPath } from './files/scan-paths';
export { followService, listeningUrl, serviceEntryArgs, serviceEntryEnv } from './service-process';
export { parentWatchEnv } from '../../node/parent-watch';
export { RunStore } from './runs/run-store';
export type { ServiceLauncher, ServiceProcess } from './service-supervisor';
export { openCipherFileStore, type StringCipher } from './session/file-token-store';
export type { TokenStore } from './session/token-store';
export { createTurnBatch, type TurnBatch } from './turn-batch';
export { WatcherService } from './watchers/watcher-service';
