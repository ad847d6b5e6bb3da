import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import './shims';
import {
  PluginModule, PluginModuleError, loadPluginModule, moduleComponent, registerPluginModuleHost, type Manifest, type ManifestPlugin,
} from '../../sdk/web/src/index';

const files: ManifestPlugin = {
  name: 'files', remoteName: 'atrium_files', remoteUrl: '/plugins/files/remoteEntry.js', prefixes: ['/fileCenter'],
  exposes: ['./App', './IconPicker', './ImageUpload'],
};

/** A host whose manifest holds `plugins` and whose loader records what it was asked for. */
function host(plugins: ManifestPlugin[], load: (plugin: ManifestPlugin, module: string) => Promise<unknown> = async () => ({ default: 'loaded' })) {
  const asked: string[] = [];
  const manifest: Manifest = { services: {}, plugins };
  registerPluginModuleHost({
    manifest: () => manifest,
    load: (plugin, module) => {
      asked.push(`${plugin.remoteName} ${module}`);
      return load(plugin, module);
    },
  });
  return asked;
}

async function rejection(promise: Promise<unknown>): Promise<PluginModuleError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof PluginModuleError, String(err));
    return err;
  }
  assert.fail('expected the load to be refused');
}

test('loadPluginModule loads a module an enabled plugin exposes, through the host', async () => {
  const asked = host([files]);
  assert.deepEqual(await loadPluginModule('files', './IconPicker'), { default: 'loaded' });
  assert.deepEqual(await loadPluginModule('files', 'IconPicker'), { default: 'loaded' });
  assert.deepEqual(asked, ['atrium_files ./IconPicker', 'atrium_files ./IconPicker']);
});

test('a plugin missing from the manifest (disabled for the tenant) is refused without loading anything', async () => {
  const asked = host([]);
  const err = await rejection(loadPluginModule('files', './IconPicker'));
  assert.equal(err.reason, 'not-enabled');
  assert.match(err.message, /files is not enabled for this tenant/);
  assert.deepEqual(asked, []);
});

test('a module the plugin does not expose is refused', async () => {
  const asked = host([{ ...files, exposes: { './App': './src/App.tsx' } }]);
  const err = await rejection(loadPluginModule('files', './IconPicker'));
  assert.equal(err.reason, 'not-exposed');
  assert.match(err.message, /files does not expose \.\/IconPicker/);
  assert.deepEqual(asked, []);
});

test('a remote that fails to load says which plugin and module', async () => {
  host([files], async () => {
    throw new Error('remoteEntry.js answered 404');
  });
  const err = await rejection(loadPluginModule('files', './IconPicker'));
  assert.equal(err.reason, 'load-failed');
  assert.match(err.message, /files \.\/IconPicker could not be loaded: remoteEntry.js answered 404/);
});

test('without a host (outside the shell) the load is refused', async () => {
  registerPluginModuleHost(undefined);
  assert.equal((await rejection(loadPluginModule('files', './IconPicker'))).reason, 'no-host');
});

test('moduleComponent picks the default export or a named one', () => {
  const Default = () => null;
  const Named = () => null;
  assert.equal(moduleComponent({ default: Default, IconPicker: Named }), Default);
  assert.equal(moduleComponent({ default: Default, IconPicker: Named }, 'IconPicker'), Named);
  assert.equal(moduleComponent({ IconPicker: 'not a component' }, 'IconPicker'), undefined);
});

test('PluginModule shows its fallback until the module is there', () => {
  host([files]);
  const fallback = createElement('span', null, 'plain list');
  const html = renderToStaticMarkup(createElement(PluginModule<{ open: boolean }>, { plugin: 'files', module: './IconPicker', fallback, open: true }));
  assert.equal(html, '<span>plain list</span>');
  registerPluginModuleHost(undefined);
});
