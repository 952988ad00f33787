/** The embedded or remote service's status as the desktop core reports it. */
import type { StateCreator } from 'zustand';
import type { AppInfo, ServiceStatus } from '../../../shared/desktop-api/contract';

export interface ServiceSlice {
  serviceStatus: ServiceStatus | null;
  appInfo: AppInfo | null;
  setServiceStatus(status: ServiceStatus): void;
  setAppInfo(info: AppInfo): void;
}

export const createServiceSlice: StateCreator<ServiceSlice, [], [], ServiceSlice> = (set) => ({
  serviceStatus: null,
  appInfo: null,
  setServiceStatus: (serviceStatus) => set({ serviceStatus }),
  setAppInfo: (appInfo) => set({ appInfo }),
});
