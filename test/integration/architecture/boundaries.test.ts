/**
 * The import rules hold by what an import resolves to. The source tree and the lint setup are
 * copied into a temporary folder, probe files that break a rule are written there, and the
 * project's own ESLint configuration must refuse each one (and accept the controls beside them,
 * so that a configuration refusing everything would fail here too).
 */
import { cpSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp';

const repo = resolve(import.meta.dirname, '../../..');
const tmp = tempDir('laneway-boundaries-');
let eslint: ESLint;

/** Writes a probe file in the copy and returns the boundary messages lint gives it. */
async function lintProbe(path: string, text: string): Promise<string[]> {
  const file = join(tmp.path, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  const [result] = await eslint.lintFiles([file]);
  return result!.messages
    .filter((m) => m.ruleId === 'boundaries/dependencies' || m.ruleId === 'no-restricted-syntax')
    .map((m) => m.message);
}

beforeAll(() => {
  for (const entry of ['src', 'eslint.config.js', 'package.json'])
    cpSync(join(repo, entry), join(tmp.path, entry), { recursive: true });
  for (const name of ['base', 'shared', 'node', 'service', 'core', 'shell', 'cli', 'preload', 'web'])
    cpSync(join(repo, `tsconfig.${name}.json`), join(tmp.path, `tsconfig.${name}.json`));
  symlinkSync(join(repo, 'node_modules'), join(tmp.path, 'node_modules'), 'dir');
  eslint = new ESLint({ cwd: tmp.path });
});
afterAll(() => tmp.remove());

describe('lint refuses imports that cross the architecture', () => {
  it('refuses shared importing better-sqlite3, fastify or a Node built-in', async () => {
    const refused = await lintProbe(
      'src/shared/probe-packages.ts',
      "import Database from 'better-sqlite3';\nimport fastify from 'fastify';\nimport { readFileSync } from 'node:fs';\nexport const probe = [Database, fastify, readFileSync];\n",
    );
    expect(refused).toHaveLength(3);
    expect(refused.join('\n')).toMatch(/"shared".*better-sqlite3[\s\S]*"shared".*fastify[\s\S]*"shared".*node:fs/);
  });

  it('refuses shared reaching into the service by a relative path', async () => {
    const refused = await lintProbe('src/shared/probe-climb.ts', "export { buildServer } from '../service/server';\n");
    expect(refused).toEqual([expect.stringMatching(/"shared" to elements of type "service"/)]);
  });

  it('refuses a feature importing another feature, and lets it import its own files', async () => {
    await lintProbe('src/renderer/src/features/beta/index.ts', 'export const beta = 1;\n');
    await lintProbe('src/renderer/src/features/alpha/own.ts', 'export const own = 1;\n');
    const refused = await lintProbe(
      'src/renderer/src/features/alpha/index.ts',
      "import { beta } from '../beta';\nimport { own } from './own';\nexport const alpha = beta + own;\n",
    );
    expect(refused).toEqual([expect.stringMatching(/feature="alpha" to .*feature="beta"/)]);
  });

  it('refuses the core importing the Electron entry or electron, statically or dynamically', async () => {
    const refused = await lintProbe(
      'src/main/core/probe-electron.ts',
      "import '../index';\nimport type { App } from 'electron';\nexport async function probe(): Promise<App> {\n  return (await import('electron')).app;\n}\n",
    );
    expect(refused).toHaveLength(3);
    expect(refused[0]).toMatch(/"core" to elements of type "shell"/);
    expect(refused[1]).toMatch(/"core" .*electron/);
    expect(refused[2]).toMatch(/"core" .*electron/);
  });

  it('refuses an import() whose module is not a literal (it could not be checked)', async () => {
    const refused = await lintProbe(
      'src/main/core/probe-computed.ts',
      "const name = 'electron';\nexport const probe = () => import(name);\n",
    );
    expect(refused).toEqual([expect.stringMatching(/string literal/)]);
  });

  it('refuses the service importing electron/main', async () => {
    const refused = await lintProbe(
      'src/service/probe-electron.ts',
      "import { app } from 'electron/main';\nexport const probe = app;\n",
    );
    expect(refused).toEqual([expect.stringMatching(/"service" .*electron/)]);
  });

  it('refuses the shell and the CLI reaching past the core entry, and accepts the entry', async () => {
    const shell = await lintProbe(
      'src/main/shell/probe-core.ts',
      "import { createDispatcher } from '../core/dispatcher';\nimport { createDesktopCore } from '../core/index';\nexport const probe = [createDispatcher, createDesktopCore];\n",
    );
    expect(shell).toEqual([expect.stringMatching(/"shell" to elements of type "core"/)]);
    const cli = await lintProbe(
      'src/cli/commands/probe-core.ts',
      "import { startBrowserHost } from '../../main/core/browser/browser-host';\nimport { createDesktopCore } from '../../main/core/index';\nexport const probe = [startBrowserHost, createDesktopCore];\n",
    );
    expect(cli).toEqual([expect.stringMatching(/"cli" to elements of type "core-area"/)]);
  });

  it('refuses the renderer importing Node built-ins or the core, and accepts react', async () => {
    const refused = await lintProbe(
      'src/renderer/src/ui/probe.ts',
      "import { readFileSync } from 'node:fs';\nimport { useState } from 'react';\nimport { createDesktopCore } from '../../../main/core/index';\nexport const probe = [readFileSync, useState, createDesktopCore];\n",
    );
    expect(refused).toHaveLength(2);
    expect(refused[0]).toMatch(/"renderer" .*node:fs/);
    expect(refused[1]).toMatch(/"renderer" to elements of type "core-entry"/);
  });

  it('refuses SQL outside a store, and accepts it in a *.store.ts file and in db/', async () => {
    const sql =
      "import type { ServiceContext } from '../context';\n" +
      'export function probe(ctx: ServiceContext): unknown {\n' +
      "  ctx.db.exec('DELETE FROM samples');\n" +
      "  return ctx.db.prepare('SELECT 1').get();\n" +
      '}\n';
    const inRoute = await lintProbe('src/service/samples/probe.routes.ts', sql);
    expect(inRoute).toHaveLength(2);
    expect(inRoute[0]).toMatch(/SQL belongs in a \*\.store\.ts file/);
    expect(await lintProbe('src/service/samples/probe.commands.ts', sql)).toHaveLength(2);
    expect(await lintProbe('src/service/samples/probe.store.ts', sql)).toEqual([]);
    expect(await lintProbe('src/service/db/probe.ts', sql.replace("'../context'", "'../context'"))).toEqual([]);
  });

  it('keeps the service areas on floors: a value import up or sideways is refused, down or type-only accepted', async () => {
    // auth is the floor under every area; audit sits above it; executions far above.
    const up = await lintProbe(
      'src/service/auth/probe-up.ts',
      "import { audit } from '../audit/audit-log';\nimport { createRun } from '../executions/run-command';\nexport const probe = [audit, createRun];\n",
    );
    expect(up).toEqual([
      expect.stringMatching(/area="auth" to elements of type "service-area" and captured values: area="audit"/),
      expect.stringMatching(/area="auth" to elements of type "service-area" and captured values: area="executions"/),
    ]);
    // groups and identity share a floor: neither may import the other (a hook in the root does).
    const sideways = await lintProbe(
      'src/service/identity/probe-sideways.ts',
      "import { claimInvitations } from '../groups/invitations.commands';\nexport const probe = claimInvitations;\n",
    );
    expect(sideways).toEqual([expect.stringMatching(/area="identity" to .*area="groups"/)]);
    // A loop needs an import up; the controls: down, type-only, own folder, and the context.
    const fine = await lintProbe(
      'src/service/lanes/probe-down.ts',
      "import { createRun } from '../executions/run-command';\nimport { requireUser } from '../auth/authenticate';\n" +
        "import type { ReportSampleRow } from '../reports/reports.store';\nimport { laneById } from './lanes.store';\n" +
        "import { systemClock } from '../context';\nexport type Row = ReportSampleRow;\n" +
        'export const probe = [createRun, requireUser, laneById, systemClock];\n',
    );
    expect(fine).toEqual([]);
    // An area with no floor is refused until it is given one.
    const unplaced = await lintProbe(
      'src/service/newarea/probe.ts',
      "import { requireUser } from '../auth/authenticate';\nexport const probe = requireUser;\n",
    );
    expect(unplaced).toEqual([expect.stringMatching(/area="newarea"/)]);
  });

  it("keeps the desktop core's folders on floors: files never import the watchers, ingest may import files", async () => {
    const up = await lintProbe(
      'src/main/core/files/probe-up.ts',
      "import { WatcherService } from '../watchers/watcher-service';\nexport const probe = WatcherService;\n",
    );
    expect(up).toEqual([
      expect.stringMatching(/area="files" to elements of type "core-area" and captured values: area="watchers"/),
    ]);
    const down = await lintProbe(
      'src/main/core/ingest/probe-down.ts',
      "import { scanPaths } from '../files/scan-paths';\nexport const probe = scanPaths;\n",
    );
    expect(down).toEqual([]);
  });
});
