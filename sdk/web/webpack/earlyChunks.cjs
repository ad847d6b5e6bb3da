/**
 * Starts the first page's chunks from index.html, beside the entry script instead of after it.
 *
 * Without it the browser learns of the chunks only once the entry has run (federation start-up, then the
 * async boundary), and of a shared library's chunk only once the chunk importing it has arrived: a waterfall
 * of round trips. A small script in the page's head (a file of its own: the kernel's Content-Security-Policy
 * allows no inline script) preloads each chunk of the named chunk groups and of the shared modules they
 * consume (followed through the consumed modules' own chunks); webpack's own `<script>` for a chunk then
 * takes the preloaded file, so nothing is fetched twice.
 *
 * `always`: chunk groups every page needs (the async boundary); `withCookie`: those needed only when a
 * cookie is set (the signed-in shell), so that the sign-in page does not download the shell.
 */
const { createHash } = require('node:crypto');

const PLUGIN = 'AtriumEarlyChunks';
const CONSUME_SHARED = 'consume-shared-module';

/** The JavaScript files of the named chunk groups and of every shared module they consume, in load order. */
function chunkFiles(compilation, groupNames) {
  const { chunkGraph } = compilation;
  const files = [];
  const seenGroups = new Set();
  const seenChunks = new Set();
  const queue = [];
  for (const name of groupNames) {
    const group = compilation.namedChunkGroups.get(name);
    if (!group) throw new Error(`${PLUGIN}: no chunk group named "${name}" (webpackChunkName)`);
    queue.push(group);
  }
  while (queue.length) {
    const group = queue.shift();
    if (seenGroups.has(group)) continue;
    seenGroups.add(group);
    for (const chunk of group.chunks) {
      if (seenChunks.has(chunk)) continue;
      seenChunks.add(chunk);
      for (const file of chunk.files) if (file.endsWith('.js')) files.push(file);
      for (const module of chunkGraph.getChunkModulesIterable(chunk)) {
        if (module.type !== CONSUME_SHARED) continue;
        for (const block of module.blocks) {
          const consumed = chunkGraph.getBlockChunkGroup(block);
          if (consumed) queue.push(consumed);
        }
      }
    }
  }
  return files;
}

function loaderScript(publicPath, always, withCookie, cookie) {
  const urls = (files) => JSON.stringify(files.map((f) => publicPath + f));
  return [
    '(function (d) {',
    `  var files = ${urls(always)};`,
    `  if (/(?:^|;\\s*)${cookie}=[^;]/.test(d.cookie)) files = files.concat(${urls(withCookie)});`,
    '  files.forEach(function (href) {',
    "    var l = d.createElement('link');",
    "    l.rel = 'preload';",
    "    l.as = 'script';",
    '    l.href = href;',
    '    d.head.appendChild(l);',
    '  });',
    '})(document);',
  ].join('\n');
}

class EarlyChunks {
  constructor({ always = [], withCookie = [], cookie }) {
    this.always = always;
    this.withCookie = withCookie;
    this.cookie = cookie;
  }

  apply(compiler) {
    const HtmlWebpackPlugin = require('html-webpack-plugin');
    compiler.hooks.compilation.tap(PLUGIN, (compilation) => {
      HtmlWebpackPlugin.getHooks(compilation).alterAssetTagGroups.tap(PLUGIN, (data) => {
        const publicPath = compilation.outputOptions.publicPath === 'auto' ? '' : compilation.outputOptions.publicPath;
        const always = chunkFiles(compilation, this.always);
        const known = new Set(always);
        const withCookie = chunkFiles(compilation, this.withCookie).filter((f) => !known.has(f));
        const code = loaderScript(publicPath, always, withCookie, this.cookie);
        const hash = createHash('sha256').update(code).digest('hex').slice(0, 8);
        const file = `assets/early-chunks.${hash}.js`;
        compilation.emitAsset(file, new compiler.webpack.sources.RawSource(code));
        data.headTags.push(
          HtmlWebpackPlugin.createHtmlTagObject('script', { src: publicPath + file, async: true }, undefined, { plugin: PLUGIN }),
        );
        return data;
      });
    });
  }
}

module.exports = { EarlyChunks, chunkFiles };
