const path = require('node:path');
const { createRemoteConfig } = require('@atrium/sdk/webpack');

module.exports = (_env, argv = {}) => {
  const config = createRemoteConfig({ dir: __dirname, name: 'forms', mode: argv.mode || 'production' });
  // @rjsf/antd is a strict ES module package ("type": "module"): webpack would give its `import { Input } from
  // 'antd'` the shared module's namespace object rather than the component (the shared antd modules are not
  // strict ES modules). Read as ordinary modules, its imports take the components like the plugin's own code.
  config.module.rules.push({ test: /[\\/]node_modules[\\/]@rjsf[\\/]antd[\\/]/, type: 'javascript/auto' });
  // rjsf's markdown rendering is never switched on by the forms: plain text instead of markdown-to-jsx.
  config.resolve.alias['markdown-to-jsx/react$'] = path.join(__dirname, 'src/rjsf/plainText.tsx');
  return config;
};
