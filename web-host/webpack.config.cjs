const { createHostConfig } = require('@atrium/sdk/webpack');

module.exports = (_env, argv = {}) => createHostConfig({ dir: __dirname, mode: argv.mode || 'production' });
