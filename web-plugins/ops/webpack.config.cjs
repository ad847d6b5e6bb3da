const { createRemoteConfig } = require('@atrium/sdk/webpack');

module.exports = (_env, argv = {}) => createRemoteConfig({ dir: __dirname, name: 'ops', mode: argv.mode || 'production' });
