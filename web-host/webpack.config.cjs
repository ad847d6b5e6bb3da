const { createHostConfig } = require('@atrium/sdk/webpack');

// index.html starts the async boundary's chunks, and with a session cookie the signed-in layout's, together
// with the shared libraries they use, beside the entry script; the first pages' antd styles come as a
// stylesheet built with the bundle instead of being written while the page draws.
module.exports = (_env, argv = {}) =>
  createHostConfig({
    dir: __dirname,
    mode: argv.mode || 'production',
    earlyChunks: { always: ['bootstrap'], withCookie: ['layout'], cookie: 'Atrium-Token' },
    antdStyles: require.resolve('./antd-first-page.cjs'),
  });
