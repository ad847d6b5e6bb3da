const { createRemoteConfig } = require('@atrium/sdk/webpack');

module.exports = (_env, argv = {}) => createRemoteConfig({ dir: __dirname, name: 'process', mode: argv.mode || 'production' });
