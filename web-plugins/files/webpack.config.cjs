const { createRemoteConfig } = require('@atrium/sdk/webpack');

module.exports = (_env, argv = {}) => {
  const config = createRemoteConfig({
    dir: __dirname,
    name: 'files',
    mode: argv.mode || 'production',
    exposes: {
      './App': './src/App.tsx',
      './IconPicker': './src/components/IconPicker.tsx',
      './ImageUpload': './src/components/ImageUpload.tsx',
    },
  });
  // The document editor's style sheet, imported as text and added to the page when the editor opens.
  config.module.rules.push({ test: /\.css$/, type: 'asset/source' });
  return config;
};
