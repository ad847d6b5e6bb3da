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

/** Module Federation `shared` for the host (it provides every singleton) or a remote (import: false). */
function sharedConfig(kind) {
  const shared = {};
  for (const [pkg, range] of Object.entries(SHARED)) {
    const entry = { singleton: true, requiredVersion: range, strictVersion: false };
    if (pkg === '@atrium/sdk') entry.version = SDK_VERSION;
    if (kind === 'remote') entry.import = false;
    shared[pkg] = entry;
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

function baseConfig({ dir, mode, entry, safeMinify = false }) {
  const production = mode !== 'development';
  return {
    optimization: production
      ? {
          // Small modules common to a shared package (antd) and the app (icon helpers) are split out
          // instead of being copied into both.
          splitChunks: { chunks: 'async', minSize: 20000 },
          minimizeOptions: {
            javascript: {
              ecma: 2020,
              // Remotes may carry libraries that call functions with `new` (echarts): no unsafe rewrites there.
              compress: safeMinify
                ? { passes: 3, ecma: 2020, pure_getters: true }
                : { passes: 3, ecma: 2020, pure_getters: true, unsafe_arrows: true, unsafe_methods: true, unsafe_comps: true },
              format: { comments: false, ecma: 2020 },
            },
          },
        }
      : {},
    mode: production ? 'production' : 'development',
    context: dir,
    entry: { main: entry || './src/index.ts' },
    devtool: production ? false : 'eval-cheap-module-source-map',
    target: 'web',
    resolve: { extensions: ['.tsx', '.ts', '.jsx', '.js', '.json'], symlinks: true },
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
    ...options,
  });
}

/**
 * The host: provides every shared singleton, loads remotes only at run time (no static `remotes`),
 * emits index.html into `dist/`, served by the kernel at `/` with SPA fallback.
 */
function createHostConfig({ dir, mode = process.env.NODE_ENV || 'production', name = 'atrium_host', entry, template } = {}) {
  const HtmlWebpackPlugin = require('html-webpack-plugin');
  const config = baseConfig({ dir, mode, entry });
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
  const config = baseConfig({ dir, mode, safeMinify: true, entry });
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
