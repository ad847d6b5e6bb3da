// A minimal federated module built the way every web plugin is, used by the shell's browser tests.
const { createRemoteConfig } = require('@atrium/sdk/webpack');

module.exports = (_env, argv = {}) => createRemoteConfig({ dir: __dirname, name: 'e2e-demo', mode: argv.mode || 'production' });
