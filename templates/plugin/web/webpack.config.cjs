module.exports = require('@atrium/sdk/webpack').createRemoteConfig({ dir: __dirname, name: '{{name}}' });
