const { createRemoteConfig } = require('@atrium/sdk/webpack');

module.exports = (_env, argv = {}) =>
  createRemoteConfig({
    dir: __dirname,
    name: 'files',
    mode: argv.mode || 'production',
    exposes: {
      './App': './src/App.tsx',
      './IconPicker': './src/components/IconPicker.tsx',
      './ImageUpload': './src/components/ImageUpload.tsx',
    },
  });
