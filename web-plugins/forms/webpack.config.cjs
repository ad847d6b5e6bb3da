const { createRemoteConfig } = require('@atrium/sdk/webpack');

module.exports = (_env, argv = {}) => createRemoteConfig({ dir: __dirname, name: 'forms', mode: argv.mode || 'production' });
