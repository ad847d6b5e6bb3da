/**
 * antd's styles for the components a first page draws, as a stylesheet built with the bundle.
 *
 * antd writes each component's CSS in the browser the first time the component renders (its CSS-in-JS
 * engine turns style objects into text and inserts a `<style>` per component). On the signed-in shell's
 * first page that is about 400 KB of CSS generated and inserted while the page is being drawn, most of its
 * render time. The engine skips that work for every style it finds listed in a stylesheet's cache-path
 * map (`.data-ant-cssinjs-cache-path{content:"path:hash;..."}`, antd's own whole-file extraction): this
 * plugin renders a sample of the components on the server side at build time (`react-dom/server` with the
 * engine's `extractStyle`), emits the result as `assets/antd.<hash>.css` and links it from index.html's
 * head (the scripts wait for it, so it is there when the first component asks). Components not in the
 * sample, and any page whose stylesheet did not load, get their styles generated at run time as before.
 *
 * The styles do not depend on the theme: antd 6 writes its tokens as CSS variables, set at run time by the
 * theme's provider, and the styles' hash class depends only on antd's version and class prefix.
 *
 * `sample`: a module exporting `(antd, h) => element[]`, the components (with the variants that add
 * styles of their own) that the first pages draw.
 */
const { execFileSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const { readFileSync } = require('node:fs');

const PLUGIN = 'AtriumAntdStyles';

/** The stylesheet's text: run in a child process, where NODE_ENV is production (antd's class names differ
 * in development) and the server-side copies of React and antd stay out of webpack's process. */
function extract(dir, sample) {
  return execFileSync(process.execPath, [__filename, dir, sample], {
    env: { ...process.env, NODE_ENV: 'production' },
    maxBuffer: 64 * 1024 * 1024,
    encoding: 'utf8',
  });
}

function render(dir, sample) {
  const load = (name) => require(require.resolve(name, { paths: [dir] }));
  const React = load('react');
  const { renderToString } = load('react-dom/server');
  const antd = load('antd');
  const { createCache, extractStyle, StyleProvider } = load('@ant-design/cssinjs');
  const cache = createCache();
  const elements = require(sample)(antd, React.createElement);
  renderToString(
    React.createElement(StyleProvider, { cache }, React.createElement(antd.ConfigProvider, null, ...elements)),
  );
  return extractStyle(cache, { plain: true, types: ['style'] });
}

class AntdStyles {
  constructor({ dir, sample }) {
    this.dir = dir;
    this.sample = sample;
    this.kept = undefined;
  }

  /** The stylesheet, extracted again only when antd's version or the sample changed (a watching build
   * compiles many times). */
  css() {
    const antd = require(require.resolve('antd/package.json', { paths: [this.dir] })).version;
    const key = `${antd}\n${readFileSync(this.sample, 'utf8')}`;
    if (this.kept?.key !== key) this.kept = { key, css: extract(this.dir, this.sample) };
    return this.kept.css;
  }

  apply(compiler) {
    const HtmlWebpackPlugin = require('html-webpack-plugin');
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap(PLUGIN, (compilation) => {
      let file;
      compilation.hooks.processAssets.tap({ name: PLUGIN, stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
        const css = this.css();
        if (!css.includes('data-ant-cssinjs-cache-path')) throw new Error(`${PLUGIN}: no cache-path map in the extracted styles`);
        file = `assets/antd.${createHash('sha256').update(css).digest('hex').slice(0, 8)}.css`;
        compilation.emitAsset(file, new sources.RawSource(css));
      });
      HtmlWebpackPlugin.getHooks(compilation).alterAssetTagGroups.tap(PLUGIN, (data) => {
        if (!file) return data;
        const publicPath = compilation.outputOptions.publicPath === 'auto' ? '' : compilation.outputOptions.publicPath;
        data.headTags.push(
          HtmlWebpackPlugin.createHtmlTagObject('link', { rel: 'stylesheet', href: publicPath + file }, undefined, { plugin: PLUGIN }),
        );
        return data;
      });
    });
  }
}

if (require.main === module) {
  process.stdout.write(render(process.argv[2], process.argv[3]));
}

module.exports = { AntdStyles };
