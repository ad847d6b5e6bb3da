import { createRoot } from 'react-dom/client';
import { configureRequest, registerPluginModuleHost } from '@atrium/sdk';
import { earlyFetch } from './early';
import { initI18n, initialLocale } from './i18n';
import { injectStyles } from './styles';
import { loadAntdLocale } from './locale';
import { loadExposed } from './plugins/registry';
import { Root } from './Root';
import { store } from './store';

async function start() {
  configureRequest({ fetch: earlyFetch });
  // plugins reach each other's exposed modules only through the host, and only those enabled for the tenant
  registerPluginModuleHost({ manifest: () => store.get().manifest, load: loadExposed });
  injectStyles();
  await Promise.all([initI18n(), loadAntdLocale(initialLocale())]);
  createRoot(document.getElementById('root')!).render(<Root />);
}

void start();
