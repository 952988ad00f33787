// Types for endpoint-routes.mjs where TypeScript imports it (electron.vite.config.ts).
import type { Plugin } from 'vite';

export declare function slimEndpoints(): Plugin;
