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
  const lines = antdComponents().map(({ name, dir: d }) => `export { default as ${name} } from 'antd/es/${d}';`);
  lines.push('export const unstableSetRender = () => undefined;');
  return writeCachePackage(dir, 'atrium-antd', `${lines.join('\n')}\n`);
}

/** react-router's package exports name only its development build for bundlers; production builds take the
 * production one, without the development checks and warnings. */
function reactRouterProduction() {
  const manifest = resolveFrom('react-router/package.json');
  return path.join(path.dirname(manifest), 'dist', 'production', 'index.mjs');
}

/**
 * What the shared `react-router` provides: its declarative API. The host draws one `HistoryRouter`, under which
 * the data-router, framework and server APIs (loaders, fetchers, `<Form>`, `<Scripts>`, RSC) cannot work, so they
 * are left out and the shared module is a third of the whole package. A name missing here is `undefined` in a
 * remote that imports it.
 */
const REACT_ROUTER_EXPORTS = [
  'BrowserRouter', 'HashRouter', 'MemoryRouter', 'Router', 'unstable_HistoryRouter', 'Routes', 'Route', 'Link',
  'NavLink', 'Navigate', 'Outlet', 'NavigationType', 'createRoutesFromChildren', 'createRoutesFromElements',
  'renderMatches', 'useHref', 'useInRouterContext', 'useLinkClickHandler', 'useLocation', 'useMatch', 'useNavigate',
  'useNavigationType', 'useOutlet', 'useOutletContext', 'useParams', 'useResolvedPath', 'useRoutes',
  'useSearchParams', 'useBeforeUnload', 'createPath', 'parsePath', 'createSearchParams', 'generatePath', 'matchPath',
  'matchRoutes', 'resolvePath', 'isRouteErrorResponse', 'UNSAFE_LocationContext', 'UNSAFE_NavigationContext',
  'UNSAFE_RouteContext', 'UNSAFE_DataRouterContext', 'UNSAFE_DataRouterStateContext', 'UNSAFE_createBrowserHistory',
  'UNSAFE_createHashHistory', 'UNSAFE_createMemoryHistory', 'UNSAFE_invariant',
];

/** Writes a package of generated source into `node_modules/.cache/<name>` (only when it changes, so that
 * webpack's file-system cache stays valid between builds), answering its index path. */
function writeCachePackage(dir, name, text) {
  const fs = require('node:fs');
  const out = path.join(dir, 'node_modules', '.cache', name);
  const writeIfChanged = (file, content) => {
    if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== content) fs.writeFileSync(file, content);
    return file;
  };
  fs.mkdirSync(out, { recursive: true });
  writeIfChanged(path.join(out, 'package.json'), `{"name":"${name}","private":true,"sideEffects":false}\n`);
  return writeIfChanged(path.join(out, 'index.js'), text);
}

/** The module the host provides as `react-router` (see REACT_ROUTER_EXPORTS). */
function reactRouterBarrel(dir) {
  const from = JSON.stringify(reactRouterProduction());
  return writeCachePackage(dir, 'atrium-react-router', `export { ${REACT_ROUTER_EXPORTS.join(', ')} } from ${from};\n`);
}

/** Shared packages the host's own code may never import: provided all the same, from their resolved file
 * (webpack provides a package named by request only once the host's code imports it). */
const PROVIDED_BY_PATH = new Set(['dayjs']);

function packageVersion(pkg) {
  return require(resolveFrom(`${pkg}/package.json`)).version;
}

/** Module Federation `shared` for the host (it provides every singleton, from `dir`'s build) or a remote
 * (import: false). */
function sharedConfig(kind, dir = process.cwd()) {
  const shared = {};
  const add = (key, range, extra = {}) => {
    const entry = { singleton: true, requiredVersion: range, strictVersion: false, ...extra };
    if (kind === 'remote') entry.import = false;
    else if (key === 'react-router') {
      entry.import = reactRouterBarrel(dir);
      entry.version = packageVersion(key);
    } else if (PROVIDED_BY_PATH.has(key) || key.startsWith('antd/')) {
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

/** The packages under every antd component (its config, theme, style engine and the rc-component basics): one
 * chunk, which any page drawing antd needs whole, instead of a hundred small ones each a request of its own. */
const ANTD_BASE = new RegExp(
  [
    // not the locale packs, each a chunk of its own loaded for the active language
    'antd/es/(_util|config-provider|theme|style|version)/',
    'antd/es/locale/(?![a-z]{2}_[A-Z]{2}\\.js)',
    '@ant-design/(cssinjs|cssinjs-utils|fast-color|colors)/',
    '@rc-component/(util|motion|trigger|portal|resize-observer|context)/',
    '@babel/runtime/',
    '@emotion/',
    'stylis/',
    'clsx/',
    'throttle-debounce/',
    'react-is/',
    'is-mobile/',
  ]
    .map((p) => `[\\/]node_modules[\\/]${p}`)
    .join('|'),
);

/** The antd components the signed-in shell draws on every page (navbar, sidebar, tabs, home's cards, antd's
 * `App` with its message, notification and modal hooks) and the rc-components under them: one chunk as well. */
const ANTD_SHELL = new RegExp(
  [
    'antd/es/(app|modal|message|notification|button|menu|tabs|dropdown|badge|avatar|tooltip|popover|spin|skeleton|card|grid|row|col|tag|empty|statistic|typography|input|auto-complete|select|space)/',
    '@rc-component/(menu|tabs|dropdown|tooltip|overflow|virtual-list|select|input|textarea|dialog|notification)/',
  ]
    .map((p) => `[\\/]node_modules[\\/]${p}`)
    .join('|'),
);

/** The host's async chunks: React with ReactDOM, i18next with react-i18next, antd's base and the shell's antd
 * components each in one chunk; what other antd components have in common in chunks of their own, however
 * small (see ANTD_BASE). */
function hostSplitChunks() {
  const group = (name, test, priority) => ({ name, test, priority, chunks: 'async', enforce: true, reuseExistingChunk: true });
  return {
    chunks: 'async',
    minSize: 0,
    maxAsyncRequests: 100,
    cacheGroups: {
      react: group('react', /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/, 30),
      i18n: group('i18n', /[\\/]node_modules[\\/](i18next|react-i18next|html-parse-stringify|void-elements)[\\/]/, 30),
      // the fifty icons antd's components draw come to less together than the small chunks they would
      // otherwise be split into
      antdIcons: group('antd-icons', /[\\/]node_modules[\\/]@ant-design[\\/]icons(-svg)?[\\/]/, 25),
      antdBase: group('antd-base', ANTD_BASE, 20),
      antdShell: group('antd-shell', ANTD_SHELL, 15),
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
          splitChunks: host ? hostSplitChunks() : { chunks: 'async', minSize: 20000 },
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

/**
 * Each script, style and picture of a production build also written gzipped at the highest level
 * (`name.js.gz`), which the kernel answers as it is: a server just started compresses nothing for its first
 * visitor, and every visitor downloads fewer bytes than with gzip done on the fly.
 */
function precompressed(mode) {
  if (mode === 'development') return [];
  const CompressionPlugin = require('compression-webpack-plugin');
  return [new CompressionPlugin({ test: /\.(js|css|svg|json)$/, threshold: 1024, minRatio: 0.9, compressionOptions: { level: 9 } })];
}

/**
 * `runtime`: 'provide' (the host) bundles the federation runtime once and hands it to the remotes;
 * 'external' (a remote) takes the host's instead of a copy in each remoteEntry.js.
 */
function federationPlugin(options, runtime) {
  const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
  return new ModuleFederationPlugin({
    dts: false,
    manifest: false,
    experiments: {
      // Remotes are loaded from remoteEntry.js, never from manifests: the snapshot code is not needed.
      optimization: { disableSnapshot: true, target: 'web' },
      ...(runtime === 'provide' ? { provideExternalRuntime: true } : { externalRuntime: true }),
    },
    // The host provides every shared module: a remote takes what is loaded, and no other remote's entry is
    // fetched to compare versions.
    shareStrategy: 'loaded-first',
    ...options,
  });
}

/**
 * The host: provides every shared singleton, loads remotes only at run time (no static `remotes`),
 * emits index.html into `dist/`, served by the kernel at `/` with SPA fallback. `earlyChunks` (see
 * earlyChunks.cjs) names the chunk groups that index.html starts downloading beside the entry;
 * `antdStyles` (see antdStyles.cjs), a module listing the antd components whose styles index.html links as a
 * stylesheet built with the bundle.
 */
function createHostConfig({ dir, mode = process.env.NODE_ENV || 'production', name = 'atrium_host', entry, template, earlyChunks, antdStyles } = {}) {
  const HtmlWebpackPlugin = require('html-webpack-plugin');
  const config = baseConfig({ dir, mode, entry, host: true });
  config.output = {
    path: path.join(dir, 'dist'),
    // relative to the page's <base href>, which the kernel writes at the prefix the platform is served under
    publicPath: '',
    filename: mode === 'development' ? '[name].js' : 'assets/[name].[contenthash:8].js',
    chunkFilename: mode === 'development' ? '[name].js' : 'assets/[name].[contenthash:8].js',
    uniqueName: name,
    clean: true,
  };
  config.plugins = [
    federationPlugin({ name, remotes: {}, shared: sharedConfig('host', dir) }, 'provide'),
    // The page is plain HTML, handed over as text: a `template` file would be compiled by a child compiler
    // that inherits the federation plugin and builds (and minifies) every shared module a second time.
    new HtmlWebpackPlugin({
      templateContent: require('node:fs').readFileSync(template || path.join(dir, 'public/index.html'), 'utf8'),
      inject: 'body',
      scriptLoading: 'defer',
    }),
  ];
  config.plugins.push(...precompressed(mode));
  if (earlyChunks) config.plugins.push(new (require('./earlyChunks.cjs').EarlyChunks)(earlyChunks));
  if (antdStyles) config.plugins.push(new (require('./antdStyles.cjs').AntdStyles)({ dir, sample: antdStyles }));
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
    }, 'external'),
  ];
  config.plugins.push(...precompressed(mode));
  return config;
}

module.exports = { createHostConfig, createRemoteConfig, sharedConfig, remoteName, SHARED, SDK_VERSION };
