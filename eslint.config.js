// Lint with the architecture's import rules as zones: each room may import only what
// ARCHITECTURE.md allows, and only the Electron shell files may import electron.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
const rooms = {
  service: { group: ['**/service/**', '**/service'], message: 'main reaches the service only by spawning its entry' },
  main: { group: ['**/main/**'], message: 'only the CLI may import the desktop core' },
  renderer: { group: ['**/renderer/**'], message: 'nothing imports the renderer' },
  preload: { group: ['**/preload/**'], message: 'nothing imports the preload' },
  cli: { group: ['**/cli/**'], message: 'nothing imports the CLI' },
  node: { group: ['**/node/**'], message: 'src/node is Node-only' },
  shell: { group: ['**/shell/**', '**/main/index'], message: 'the Electron shell is imported by nobody' },
};
const electron = {
  name: 'electron',
  message: 'only src/main/index.ts, src/main/shell and src/preload may import electron',
};
const zone = (files, { paths = [], patterns = [], node = false }) => ({
  files,
  rules: {
    'no-restricted-imports': [
      'error',
      {
        paths: [...paths, ...(node ? nodeBuiltins.map((name) => ({ name, message: 'no Node built-ins here' })) : [])],
        patterns,
      },
    ],
  },
});

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', '.bench/**'] },
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
  zone(['src/shared/**'], {
    node: true,
    paths: [electron, { name: 'react', message: 'shared is framework-free' }],
    patterns: [rooms.service, rooms.main, rooms.renderer, rooms.preload, rooms.cli, rooms.node],
  }),
  zone(['src/node/**'], {
    paths: [electron],
    patterns: [rooms.service, rooms.main, rooms.renderer, rooms.preload, rooms.cli],
  }),
  zone(['src/service/**'], {
    paths: [electron, { name: 'react', message: 'the service has no UI' }],
    patterns: [rooms.main, rooms.renderer, rooms.preload, rooms.cli],
  }),
  zone(['src/main/core/**', 'src/main/browser/**'], {
    paths: [electron],
    patterns: [rooms.service, rooms.renderer, rooms.preload, rooms.cli, rooms.shell],
  }),
  zone(['src/main/shell/**', 'src/main/index.ts'], {
    patterns: [rooms.service, rooms.renderer, rooms.preload, rooms.cli],
  }),
  zone(['src/preload/**'], {
    node: true,
    patterns: [rooms.service, rooms.main, rooms.renderer, rooms.cli, rooms.node],
  }),
  zone(['src/renderer/**'], {
    node: true,
    paths: [electron],
    patterns: [rooms.service, rooms.main, rooms.preload, rooms.cli, rooms.node],
  }),
  // Features do not import each other: a feature reaching into a sibling folder is refused.
  zone(['src/renderer/src/features/**'], {
    node: true,
    paths: [electron],
    patterns: [
      rooms.service,
      rooms.main,
      rooms.preload,
      rooms.cli,
      rooms.node,
      {
        regex: '^\\.\\./(?!\\.)[^/]+/',
        message: 'features do not import each other; move shared code to ui/ or store/',
      },
    ],
  }),
  zone(['src/cli/**'], { paths: [electron], patterns: [rooms.renderer, rooms.preload, rooms.shell] }),
);
