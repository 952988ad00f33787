/**
 * Where the desktop app keeps its files when nobody says otherwise: the same folder Electron's
 * app.getPath('userData') gives, so browser mode and the desktop app share one state.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

export function defaultUserDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.LANEWAY_HOME) return env.LANEWAY_HOME;
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Laneway');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Laneway');
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'Laneway');
}

/** The embedded service's data folder inside the user data folder. */
export function serviceDataDir(userData: string): string {
  return join(userData, 'service');
}
