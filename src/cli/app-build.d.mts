// Types for app-build.mjs where TypeScript imports it (electron.vite.config.ts).
import type { Plugin } from 'vite';

export declare const APP_PARTS: readonly string[];
export declare function staleAppPart(root?: string): string | null;
export declare function recordInputs(part: string, root?: string): Plugin;
export declare function ensureAppBuild(root?: string): Promise<boolean>;
