/**
 * The bridge: exposes the desktop API contract on `window.laneway`, and on `window.lanewayFiles`
 * the one helper outside it (a dropped file's path). Each method is one `ipcRenderer.invoke` on
 * its contract channel; events arrive a turn's worth per message on one channel, and event
 * subscriptions return an unsubscribe function.
 */
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { createDesktopApi, type WireResult } from '../shared/desktop-api/client';
import type { MethodName } from '../shared/desktop-api/contract';
import { createEventListeners } from '../shared/desktop-api/event-listeners';
import { DESKTOP_EVENTS_CHANNEL } from '../shared/desktop-api/ipc-channels';
import { lanewayFilesOver } from '../shared/desktop-api/dropped-files';
import type { WireEvent } from '../shared/desktop-api/wire';

const listeners = createEventListeners((err) => reportError(err));
// Only the main process sends on this channel; a message that is not a batch is dropped.
ipcRenderer.on(DESKTOP_EVENTS_CHANNEL, (_e: unknown, events: unknown) => {
  if (Array.isArray(events)) listeners.deliverAll(events as WireEvent[]);
});

const api = createDesktopApi({
  invoke: (channel: MethodName, params: unknown) => ipcRenderer.invoke(channel, params) as Promise<WireResult<unknown>>,
  subscribe(event, listener) {
    const added = listeners.add(event, listener);
    return () => void added.remove();
  },
});

contextBridge.exposeInMainWorld('laneway', api);
contextBridge.exposeInMainWorld('lanewayFiles', lanewayFilesOver<File>(webUtils));
