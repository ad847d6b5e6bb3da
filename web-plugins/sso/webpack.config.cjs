const { createRemoteConfig } = require('@atrium/sdk/webpack');

module.exports = (_env, argv = {}) => createRemoteConfig({ dir: __dirname, name: 'sso', mode: argv.mode || 'production' });
