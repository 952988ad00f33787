/**
 * The single IPC channel on which the main process pushes desktop API events: each message is
 * the events of one turn of the core's event loop (`WireEvent[]`, in the order emitted).
 */
export const DESKTOP_EVENTS_CHANNEL = 'desktop:events';
