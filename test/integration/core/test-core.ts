/**
 * The real desktop core as the browser shell runs it, with its embedded service as a child
 * process, on folders of the test's, and its dispatcher called as the renderer calls it.
 */
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { WireResult } from '../../../src/shared/desktop-api/client';
import { childServiceLauncher } from '../../../src/main/core/child-service-launcher';
import { createDesktopCore, type DesktopCore } from '../../../src/main/core/desktop-core';
import { tempDir } from '../../helpers/temp';

/** Starts a core whose service keeps its data in `<root>/service` and its state in `<root>/state`. */
export async function startTestCore(root: string): Promise<DesktopCore> {
  const core = createDesktopCore({
    serviceDataDir: join(root, 'service'),
    stateDir: join(root, 'state'),
    launcher: childServiceLauncher(),
    shell: 'browser',
    noKeychain: true,
    log: () => {},
  });
  await core.start();
  return core;
}

/** One dispatcher call; a refusal throws with its code and message. */
export async function callCore<T>(core: DesktopCore, channel: string, params: unknown = {}): Promise<T> {
  const res = (await core.dispatcher.dispatch(channel, params)) as WireResult<T>;
  if (!res.ok) throw new Error(`${channel}: ${res.error.code} ${res.error.message}`);
  return res.value;
}

/**
 * A core for a whole test file: a temp folder made now, the core started before the file's tests
 * and stopped, with its folder removed, after them. `held.core` is set once it has started.
 */
export function coreForFile(prefix: string): { dir: string; held: { core: DesktopCore } } {
  const dir = tempDir(prefix);
  const held = {} as { core: DesktopCore };
  beforeAll(async () => {
    held.core = await startTestCore(dir.path);
  }, 60_000);
  afterAll(async () => {
    await held.core?.stop();
    dir.remove();
  });
  return { dir: dir.path, held };
}
