const { createRemoteConfig } = require('@atrium/sdk/webpack');

module.exports = (_env, argv = {}) =>
  createRemoteConfig({
    dir: __dirname,
    name: 'transfer',
    mode: argv.mode || 'production',
    exposes: {
      './App': './src/App.tsx',
      './ImportWizard': './src/components/ImportWizard.tsx',
      './ExportButton': './src/components/ExportButton.tsx',
      './WordExport': './src/components/WordExport.tsx',
      './exportTask': './src/exportTask.ts',
    },
  });
