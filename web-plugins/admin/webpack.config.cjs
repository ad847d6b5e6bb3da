const { createRemoteConfig } = require('@atrium/sdk/webpack');

module.exports = (_env, argv = {}) => createRemoteConfig({ dir: __dirname, name: 'admin', mode: argv.mode || 'production' });
