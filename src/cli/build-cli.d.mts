// Types for build-cli.mjs where TypeScript imports it (tests, benchmarks).
export interface BuildManifest {
  version: number;
  dir: string;
  hash: string;
  builtAt: string;
  inputs: Array<[path: string, size: number, mtimeMs: number, sha256: string]>;
  /** Per one-shot command, the sources its bundle and threads were made from. */
  oneShot?: Record<string, string[]>;
}
export declare const PROJECT_ROOT: string;
export declare const CLI_ENTRIES: Readonly<Record<string, string>>;
export declare const ONE_SHOT: Readonly<Record<string, string>>;
/** Built-ins a one-shot bundle loads at their first call (node:zlib, ...). */
export declare const LAZY_BUILTINS: readonly string[];
export declare function cliDir(root?: string): string;
export declare function cliManifestFile(root?: string): string;
export declare function freshCliBuild(root?: string, command?: string): BuildManifest | null;
export declare function buildCli(root?: string): Promise<BuildManifest>;
export declare function ensureCli(root?: string): Promise<BuildManifest>;
