/**
 * Decides whether the Electron desktop app can run here: the electron package must be
 * installed with its binary (it is downloaded on first use, which fails offline), and on Linux
 * a display must exist. Never imports electron (that would try the download).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export type ElectronProbe = { ok: true; binary: string } | { ok: false; reason: string };

export function probeElectron(env: NodeJS.ProcessEnv = process.env, platform = process.platform): ElectronProbe {
  let pkgDir: string;
  try {
    pkgDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return { ok: false, reason: 'the electron package is not installed' };
  }
  const pathFile = join(pkgDir, 'path.txt');
  if (!existsSync(pathFile))
    return { ok: false, reason: 'no Electron binary is installed (it could not be downloaded)' };
  const binary = join(pkgDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  if (!existsSync(binary)) return { ok: false, reason: `the Electron binary is missing (${binary})` };
  if (platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) return { ok: false, reason: 'there is no display' };
  return { ok: true, binary };
}
