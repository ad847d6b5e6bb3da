/**
 * The one webpack config helper of the web: the host and every web plugin build through it, so the
 * Module Federation setup (the SHARED singletons, the async boundary, swc) is written once.
 *
 *   // web-host/webpack.config.cjs
 *   module.exports = require('@atrium/sdk/webpack').createHostConfig({ dir: __dirname });
 *   // web-plugins/<name>/webpack.config.cjs
 *   module.exports = require('@atrium/sdk/webpack').createRemoteConfig({ dir: __dirname, name: '<name>' });
 *
 * A remote's exposed `./App` default-exports `definePlugin({...})`; it is served by the kernel at
 * `/plugins/<name>/remoteEntry.js` and registered by the host at run time from the manifest.
 */
const path = require('node:path');
const SHARED = require('../src/shared.json');

const SDK_VERSION = require('../package.json').version;

/** The global name of a plugin's remote container: `atrium_<name>` with dashes as underscores. */
function remoteName(pluginName) {
  return `atrium_${String(pluginName).replace(/[^a-zA-Z0-9_]/g, '_')}`;
}

/**
 * antd is shared one component at a time, so that a page downloads only the components it draws while
 * the host and every remote still use one copy (one ConfigProvider context, one theme, one locale).
 * `import { Button } from 'antd'` resolves to a generated barrel of `antd/es/<component>` re-exports; the
 * barrel has no side effects, so webpack points each import straight at its component's shared module.
 */
const ANTD_EXPORT = /^export \{ default as (\w+) \} from '\.\/([\w-]+)';$/;
let antdParts;

/** A package file as the building project resolves it (hoisted or its own node_modules). */
function resolveFrom(request) {
  return require.resolve(request, { paths: [process.cwd(), __dirname] });
}

/** antd's components as its index lists them; read once per build, though every config asks. */
function antdComponents() {
  if (antdParts) return antdParts;
  const index = resolveFrom('antd/es/index.js');
  const parts = [];
  for (const line of require('node:fs').readFileSync(index, 'utf8').split('\n')) {
    const found = ANTD_EXPORT.exec(line.trim());
    if (found) parts.push({ name: found[1], dir: found[2] });
  }
  if (parts.length < 40) throw new Error(`antd/es/index.js lists ${parts.length} components: its layout changed`);
  antdParts = parts;
  return parts;
}

/** Writes the barrel that `antd` resolves to (into `node_modules/.cache`), answering its path. */
function antdBarrel(dir) {
  const fs = require('node:fs');
  const out = path.join(dir, 'node_modules', '.cache', 'atrium-antd');
  const lines = antdComponents().map(({ name, dir: d }) => `export { default as ${name} } from 'antd/es/${d}';`);
  lines.push('export const unstableSetRender = () => undefined;');
  const text = `${lines.join('\n')}\n`;
  // Rewritten only when it changes, so that webpack's file-system cache stays valid between builds.
  const writeIfChanged = (file, content) => {
    if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== content) fs.writeFileSync(file, content);
    return file;
  };
  fs.mkdirSync(out, { recursive: true });
  writeIfChanged(path.join(out, 'package.json'), '{"name":"atrium-antd","private":true,"sideEffects":false}\n');
  return writeIfChanged(path.join(out, 'index.js'), text);
}

/** react-router's package exports name only its development build for bundlers; production builds take the
 * production one, without the development checks and warnings. */
function reactRouterProduction() {
  const manifest = resolveFrom('react-router/package.json');
  return path.join(path.dirname(manifest), 'dist', 'production', 'index.mjs');
}

/** Shared packages the host's own code may never import: provided all the same, from their resolved file
 * (webpack provides a package named by request only once the host's code imports it). */
const PROVIDED_BY_PATH = new Set(['dayjs']);

function packageVersion(pkg) {
  return require(resolveFrom(`${pkg}/package.json`)).version;
}

/** Module Federation `shared` for the host (it provides every singleton) or a remote (import: false). */
function sharedConfig(kind) {
  const shared = {};
  const add = (key, range, extra = {}) => {
    const entry = { singleton: true, requiredVersion: range, strictVersion: false, ...extra };
    if (kind === 'remote') entry.import = false;
    else if (PROVIDED_BY_PATH.has(key) || key.startsWith('antd/')) {
      entry.import = resolveFrom(key);
      entry.version = packageVersion(key.split('/')[0]);
    }
    shared[key] = entry;
  };
  for (const [pkg, range] of Object.entries(SHARED)) {
    if (pkg === 'antd') {
      for (const { dir } of antdComponents()) add(`antd/es/${dir}`, range);
    } else {
      add(pkg, range, pkg === '@atrium/sdk' ? { version: SDK_VERSION } : {});
    }
  }
  return shared;
}

function swcRule(mode) {
  return {
    test: /\.[cm]?[jt]sx?$/,
    exclude: /node_modules/,
    use: {
      loader: require.resolve('swc-loader'),
      options: {
        jsc: {
          parser: { syntax: 'typescript', tsx: true },
          target: 'es2020',
          transform: { react: { runtime: 'automatic', development: mode !== 'production' } },
        },
      },
    },
  };
}

function baseConfig({ dir, mode, entry, host = false }) {
  const production = mode !== 'development';
  return {
    optimization: production
      ? {
          // The host provides every antd component as its own shared module: the internals they have in
          // common get chunks of their own, however small, rather than a copy in each component's chunk.
          // A remote's small modules common to a shared package and its own code are split out too.
          splitChunks: host ? { chunks: 'async', minSize: 0, maxAsyncRequests: 100 } : { chunks: 'async', minSize: 20000 },
          // swc's minifier: the host provides every antd component as its own chunk, and terser would take
          // minutes over them.
          minimizer: [
            new (require('minimizer-webpack-plugin'))({
              minify: {
                implementation: require('minimizer-webpack-plugin').swcMinify,
                options: {
                  ecma: 2020,
                  compress: { passes: 2, ecma: 2020 },
                  format: { comments: false },
                },
              },
            }),
          ],
        }
      : {},
    mode: production ? 'production' : 'development',
    context: dir,
    entry: { main: entry || './src/index.ts' },
    devtool: production ? false : 'eval-cheap-module-source-map',
    target: 'web',
    resolve: {
      extensions: ['.tsx', '.ts', '.jsx', '.js', '.json'],
      symlinks: true,
      alias: { antd$: antdBarrel(dir), ...(production ? { 'react-router$': reactRouterProduction() } : {}) },
    },
    module: { rules: [swcRule(mode)] },
    cache: { type: 'filesystem', cacheDirectory: path.join(dir, 'node_modules/.cache/webpack'), buildDependencies: { config: [__filename] } },
    performance: { hints: false },
    stats: 'errors-warnings',
    infrastructureLogging: { level: 'error' },
  };
}

function federationPlugin(options) {
  const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
  // Remotes are loaded from remoteEntry.js, never from manifests: the snapshot code is not needed.
  return new ModuleFederationPlugin({
    dts: false,
    manifest: false,
    experiments: { optimization: { disableSnapshot: true, target: 'web' } },
    // The host provides every shared module: a remote takes what is loaded, and no other remote's entry is
    // fetched to compare versions.
    shareStrategy: 'loaded-first',
    ...options,
  });
}

/**
 * The host: provides every shared singleton, loads remotes only at run time (no static `remotes`),
 * emits index.html into `dist/`, served by the kernel at `/` with SPA fallback.
 */
function createHostConfig({ dir, mode = process.env.NODE_ENV || 'production', name = 'atrium_host', entry, template } = {}) {
  const HtmlWebpackPlugin = require('html-webpack-plugin');
  const config = baseConfig({ dir, mode, entry, host: true });
  config.output = {
    path: path.join(dir, 'dist'),
    publicPath: '/',
    filename: mode === 'development' ? '[name].js' : 'assets/[name].[contenthash:8].js',
    chunkFilename: mode === 'development' ? '[name].js' : 'assets/[name].[contenthash:8].js',
    uniqueName: name,
    clean: true,
  };
  config.plugins = [
    federationPlugin({ name, remotes: {}, shared: sharedConfig('host') }),
    new HtmlWebpackPlugin({ template: template || path.join(dir, 'public/index.html'), inject: 'body', scriptLoading: 'defer' }),
  ];
  return config;
}

/**
 * A plugin's remote: exposes `./App` (default `./src/App.tsx`), ships no copy of a shared package,
 * output `dist/` with `remoteEntry.js`, served at `/plugins/<name>/`.
 */
function createRemoteConfig({ dir, name, mode = process.env.NODE_ENV || 'production', exposes, entry } = {}) {
  if (!name) throw new Error('createRemoteConfig: name (the plugin name) is required');
  const config = baseConfig({ dir, mode, entry });
  // The container (remoteEntry.js) is the remote's only entry.
  if (!entry) config.entry = {};
  const container = remoteName(name);
  config.output = {
    path: path.join(dir, 'dist'),
    publicPath: 'auto',
    filename: '[name].[contenthash:8].js',
    chunkFilename: '[name].[contenthash:8].js',
    uniqueName: container,
    clean: true,
  };
  config.plugins = [
    federationPlugin({
      name: container,
      filename: 'remoteEntry.js',
      exposes: exposes || { './App': './src/App.tsx' },
      shared: sharedConfig('remote'),
    }),
  ];
  return config;
}

module.exports = { createHostConfig, createRemoteConfig, sharedConfig, remoteName, SHARED, SDK_VERSION };
