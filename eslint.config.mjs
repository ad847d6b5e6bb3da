// ESLint for the web: the host (web-host), the JS SDK (sdk/web) and every plugin's remote (web-plugins/*).
// `npm run lint:web` runs it; nox's `lint` session calls that after ruff and mypy.
//
// - JavaScript's and typescript-eslint's recommended rules (syntax only: no type information, so it stays
//   quick on a two-core machine; `npm run typecheck` is the type check);
// - React's rules of hooks and exhaustive effect dependencies, both errors (an effect that runs on some
//   values only reads the others through useEffectEvent, never through a disabled rule);
// - `any` is an error in the SDK, the plugins' typed surface; the host and the remotes still hold explicit
//   `any`s where they meet untyped code (bpmn-js's services and moddle elements, the chart engines' internals,
//   the server's free-form JSON of forms and reports), so the rule is off there until those are typed;
// - the boundaries of a remote: a remote imports the SDK and its own files, never another remote (an exposed
//   module of another plugin is loaded at run time with the SDK's loadPluginModule), and neither the host nor
//   the SDK imports a remote's files.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const ROOT = path.dirname(fileURLToPath(import.meta.url));
const PLUGINS = path.join(ROOT, 'web-plugins');

/** The remote (folder under web-plugins) a file belongs to, or null. */
function remoteOf(file) {
  const rel = path.relative(PLUGINS, file);
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return null;
  return rel.split(path.sep)[0];
}

/** The remote an import reaches (by a relative path, its package name or its federated name), or null. */
function importedRemote(source, file) {
  if (source.startsWith('.')) return remoteOf(path.resolve(path.dirname(file), source));
  const named = /^@atrium\/plugin-([^/]+)/.exec(source) || /^atrium_([^/]+)\//.exec(source);
  return named ? named[1] : null;
}

const boundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'A remote imports the SDK and its own files; no workspace imports another remote' },
    schema: [],
    messages: {
      otherRemote: '{{from}} imports from the remote web-plugins/{{to}}: import the SDK (@atrium/sdk) instead, '
        + 'or load the remote\'s exposed module at run time (loadPluginModule)',
    },
  },
  create(context) {
    const file = context.filename;
    const own = remoteOf(file);
    const from = own ? `web-plugins/${own}` : path.relative(ROOT, file).split(path.sep)[0];
    const check = (node, source) => {
      if (typeof source !== 'string') return;
      const to = importedRemote(source, file);
      if (to && to !== own) context.report({ node, messageId: 'otherRemote', data: { from, to } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

export default defineConfig(
  { ignores: ['**/node_modules/**', '**/dist/**'] },
  {
    files: ['**/*.{js,mjs,cjs,ts,tsx}'],
    extends: [js.configs.recommended],
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [tseslint.configs.recommended],
    plugins: { 'react-hooks': reactHooks, atrium: { rules: { boundaries } } },
    languageOptions: { globals: globals.browser },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'atrium/boundaries': 'error',
      '@typescript-eslint/no-explicit-any': 'off',
      // `_name` marks a value left out on purpose (a destructured key dropped from a rest, an unused argument)
      '@typescript-eslint/no-unused-vars': ['error', {
        argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_',
      }],
    },
  },
  {
    files: ['sdk/web/src/**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/no-explicit-any': 'error' },
  },
  {
    // webpack configs and the build scripts run in Node
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { 'no-unused-vars': ['error', { argsIgnorePattern: '^_' }] },
  },
);
