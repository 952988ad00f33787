/** The single IPC channel on which the main process pushes desktop API events. */
export const DESKTOP_EVENT_CHANNEL = 'desktop:event';
