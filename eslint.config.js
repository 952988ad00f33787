// Lint with the architecture's import rules, checked on the file each import resolves to
// (eslint-plugin-boundaries with the TypeScript resolver), not on the import's text: a relative
// path that climbs into another room, a re-export, or `await import('electron')` is caught too.
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The rooms, matched first to last on a file's path. The core's public entry is its own element
// so that the shell and the CLI can be allowed that file and nothing else of the core; browser
// mode (the core's WebSocket transport under plain Node) is a folder of the core (core/browser/).
const elements = [
  { type: 'shared', pattern: 'src/shared/**', mode: 'full' },
  { type: 'node', pattern: 'src/node/**', mode: 'full' },
  { type: 'service-base', pattern: ['src/service/context.ts', 'src/service/service-log.ts'], mode: 'full' },
  { type: 'service-area', pattern: 'src/service/*/**', mode: 'full', capture: ['area'] },
  { type: 'service', pattern: 'src/service/**', mode: 'full' },
  { type: 'core-entry', pattern: ['src/main/core/index.ts', 'src/main/core/headless.ts'], mode: 'full' },
  { type: 'core-area', pattern: 'src/main/core/*/**', mode: 'full', capture: ['area'] },
  { type: 'core', pattern: 'src/main/core/**', mode: 'full' },
  { type: 'shell', pattern: ['src/main/shell/**', 'src/main/index.ts'], mode: 'full' },
  { type: 'preload', pattern: 'src/preload/**', mode: 'full' },
  { type: 'feature', pattern: 'src/renderer/src/features/*/**', mode: 'full', capture: ['feature'] },
  { type: 'renderer', pattern: 'src/renderer/**', mode: 'full' },
  { type: 'cli', pattern: 'src/cli/**', mode: 'full' },
];

// The service's areas on floors, lowest first: an area's value imports reach only its own
// folder and the areas on lower floors, never one beside it, so the areas cannot form an
// import loop; an effect upward or sideways goes through a hook wired in the composition
// root (src/service/services.ts). Type-only imports are free (they vanish at run time). A new
// area gets a floor here before lint accepts its imports.
const serviceFloors = [
  ['db', 'http', 'mail', 'engines', 'backup'],
  ['auth', 'policy', 'storage'],
  // health registers its route from its descriptor with http's serve-endpoint, and asks auth's
  // users store whether an account exists yet (setup_open).
  ['audit', 'notifications', 'pipelines', 'settings', 'vocabularies', 'health'],
  ['data', 'groups', 'identity', 'projects', 'shares', 'webhooks'],
  ['sheets', 'references', 'samples', 'uploads'],
  ['tools'],
  ['executions'],
  ['graphql', 'lanes'],
  ['reports'],
  ['flow'],
];

// The desktop core's folders on floors, as the service's areas: a folder's value imports reach
// its own files, the folders below it and the core's root files (composition, paths), so the
// folders cannot form an import loop.
const coreFloors = [
  ['browser', 'files', 'service-client'],
  ['instruments', 'notifications', 'uploads', 'launches'],
  ['runs', 'session'],
  ['ingest'],
  ['watchers'],
];

// Which rooms each room may import (ARCHITECTURE.md; README "Architecture"). The service's
// root files (server, modules, the composition root) may use every area; areas see the
// context (service-base) and the floors below them.
const allowedRooms = {
  shared: ['shared'],
  node: ['shared', 'node'],
  service: ['shared', 'node', 'service', 'service-base', 'service-area'],
  'service-base': ['shared', 'node', 'service-base'],
  'service-area': ['shared', 'node', 'service-base'],
  core: ['shared', 'node', 'core', 'core-area', 'core-entry'],
  'core-area': ['shared', 'node', 'core'],
  'core-entry': ['shared', 'node', 'core', 'core-area', 'core-entry'],
  shell: ['shared', 'shell', 'core-entry'],
  preload: ['shared', 'preload'],
  renderer: ['shared', 'renderer', 'feature'],
  cli: ['shared', 'node', 'service', 'service-base', 'service-area', 'core-entry', 'cli'],
};

// The packages the service's rooms may use.
function serviceRoomPackages() {
  return [
    'fastify',
    'better-sqlite3',
    'busboy',
    'exceljs',
    'graphql',
    'graphql-ws',
    'jose',
    'nodemailer',
    // Webhook delivery: an agent whose DNS lookup enforces the target policy.
    'undici',
    'ws',
    'ajv',
    'typebox',
    '@fastify/type-provider-typebox',
  ];
}

// Which packages each room may import; everything else (electron above all) is refused. Node's
// built-ins only where Node runs: not in shared, the sandboxed preload or the renderer.
const nodeRooms = [
  'node',
  'service',
  'service-base',
  'service-area',
  'core',
  'core-area',
  'core-entry',
  'shell',
  'cli',
];
const allowedPackages = {
  // The schema library is the one package shared may use: the API contracts are built with it.
  shared: ['typebox'],
  node: [],
  service: serviceRoomPackages(),
  'service-base': serviceRoomPackages(),
  'service-area': serviceRoomPackages(),
  core: ['better-sqlite3', 'chokidar', 'keytar', 'undici', 'ws'],
  'core-area': ['better-sqlite3', 'chokidar', 'keytar', 'undici', 'ws'],
  'core-entry': [],
  shell: ['electron'],
  preload: ['electron'],
  renderer: ['react', 'react-dom', 'zustand', 'graphql-ws'],
  // fflate: gzip FASTQs of several members (bgzip, joined lanes), which DecompressionStream refuses.
  feature: ['react', 'react-dom', 'zustand', 'graphql-ws', 'fflate'],
  // The start-up builder bundles with esbuild and records the app build's inputs in a Vite plugin.
  cli: ['esbuild', 'vite'],
};

const policies = [
  ...Object.entries(allowedRooms).map(([from, to]) => ({
    from: { element: { type: from } },
    allow: { to: { element: { type: to } } },
  })),
  // A feature may use its own folder, the renderer's shared code (store, ui, service client)
  // and shared, never another feature.
  ...serviceFloors.flatMap((areas, floor) =>
    areas.map((area) => ({
      from: { element: { type: 'service-area', captured: { area } } },
      allow: {
        to: { element: { type: 'service-area', captured: { area: [area, ...serviceFloors.slice(0, floor).flat()] } } },
      },
    })),
  ),
  ...coreFloors.flatMap((areas, floor) =>
    areas.map((area) => ({
      from: { element: { type: 'core-area', captured: { area } } },
      allow: {
        to: { element: { type: 'core-area', captured: { area: [area, ...coreFloors.slice(0, floor).flat()] } } },
      },
    })),
  ),
  {
    from: { element: { type: 'core-area' } },
    allow: { to: { element: { type: ['core', 'core-area', 'core-entry'] } }, dependency: { kind: 'type' } },
  },
  {
    from: { element: { type: ['service-area', 'service-base'] } },
    allow: { to: { element: { type: ['service', 'service-base', 'service-area'] } }, dependency: { kind: 'type' } },
  },
  {
    from: { element: { type: 'feature' } },
    allow: [
      { to: { element: { type: ['shared', 'renderer'] } } },
      { to: { element: { type: 'feature', captured: { feature: '{{from.element.captured.feature}}' } } } },
    ],
  },
  ...Object.entries(allowedPackages)
    .filter(([, packages]) => packages.length)
    .map(([from, packages]) => ({
      from: { element: { type: from } },
      allow: { to: { module: { origin: 'external', source: packages } } },
    })),
  { from: { element: { type: nodeRooms } }, allow: { to: { module: { origin: 'core' } } } },
];

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      '.bench/**',
      '.cache/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  { files: ['test/**', 'build/**'], rules: { 'no-console': 'off' } },
  { files: ['test/e2e/**'], rules: { 'no-empty-pattern': 'off' } },
  {
    files: ['src/**'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': elements,
      // `mode: 'full'` (a pattern naming files, not folders) is deprecated in 7.x but is what
      // lets one file (the core's entry) be its own room; the version is pinned.
      'boundaries/legacy-warnings': false,
      'boundaries/dependency-nodes': ['import', 'dynamic-import', 'export', 'require'],
      'boundaries/root-path': import.meta.dirname,
      'import/resolver': {
        typescript: {
          alwaysTryTypes: true,
          project: [`${import.meta.dirname}/tsconfig.*.json`],
          noWarnOnMultipleProjects: true,
        },
      },
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        { default: 'disallow', checkAllOrigins: true, checkUnknownLocals: true, policies },
      ],
      // A dynamic import must name its module literally, so that the rules above can see it.
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportExpression[source.type!="Literal"]',
          message: 'import() takes a string literal here, so that lint can check where it goes',
        },
      ],
    },
  },
  {
    // SQL lives in stores: routes, commands, presenters and engines call a `*.store.ts`
    // function, so every query of an area is in one file (db/ holds the database and migrations).
    files: ['src/service/**/*.ts'],
    ignores: ['src/service/**/*.store.ts', 'src/service/db/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportExpression[source.type!="Literal"]',
          message: 'import() takes a string literal here, so that lint can check where it goes',
        },
        {
          selector: 'CallExpression[callee.property.name="prepare"]',
          message: 'SQL belongs in a *.store.ts file of the area (or src/service/db/)',
        },
        {
          selector: 'CallExpression[callee.property.name=/^(exec|pragma)$/][callee.object.name="db"]',
          message: 'SQL belongs in a *.store.ts file of the area (or src/service/db/)',
        },
        {
          selector: 'CallExpression[callee.property.name=/^(exec|pragma)$/][callee.object.property.name="db"]',
          message: 'SQL belongs in a *.store.ts file of the area (or src/service/db/)',
        },
      ],
    },
  },
);
