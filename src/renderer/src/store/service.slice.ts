/** The service's status as the desktop core reports it, and whether the renderer reaches it. */
import type { StateCreator } from 'zustand';
import type { AppInfo, ServiceStatus } from '../../../shared/desktop-api/contract';

export interface ServiceSlice {
  serviceStatus: ServiceStatus | null;
  appInfo: AppInfo | null;
  /** The desktop core's link (the browser-mode socket; always true in Electron). */
  desktopConnected: boolean;
  /** False after a service request failed for the network, true again after one succeeds. */
  serviceReachable: boolean;
  /**
   * Counts the times the service answered again after a request could not reach it (or the
   * embedded one restarted): screens whose last load failed for the network load again.
   */
  serviceEpoch: number;
  setServiceStatus(status: ServiceStatus): void;
  setAppInfo(info: AppInfo): void;
  setDesktopConnected(connected: boolean): void;
  setServiceReachable(reachable: boolean): void;
}

export const createServiceSlice: StateCreator<ServiceSlice, [], [], ServiceSlice> = (set, get) => ({
  serviceStatus: null,
  appInfo: null,
  desktopConnected: true,
  serviceReachable: true,
  serviceEpoch: 0,
  setServiceStatus: (serviceStatus) => set({ serviceStatus }),
  setAppInfo: (appInfo) => set({ appInfo }),
  setDesktopConnected: (desktopConnected) => set({ desktopConnected }),
  setServiceReachable: (serviceReachable) => {
    if (get().serviceReachable === serviceReachable) return;
    set(serviceReachable ? { serviceReachable, serviceEpoch: get().serviceEpoch + 1 } : { serviceReachable });
  },
});
