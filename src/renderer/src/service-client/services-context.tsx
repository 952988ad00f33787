/** The desktop API, its link state and the service client, handed to every screen. */
import { createContext, useContext, type ReactNode } from 'react';
import type { DesktopApi } from '../../../shared/desktop-api/client';
import type { DesktopLink } from '../desktop/connect';
import type { ServiceClient } from './http-client';
import type { TokenSource } from './token-source';

export interface Services {
  api: DesktopApi;
  link: DesktopLink;
  client: ServiceClient;
  tokens: TokenSource;
}

const ServicesContext = createContext<Services | null>(null);

/** Provides the services to the tree below. */
export function ServicesProvider({ services, children }: { services: Services; children: ReactNode }) {
  return <ServicesContext.Provider value={services}>{children}</ServicesContext.Provider>;
}

/** The services; only valid below ServicesProvider. */
export function useServices(): Services {
  const s = useContext(ServicesContext);
  if (!s) throw new Error('useServices outside ServicesProvider');
  return s;
}
