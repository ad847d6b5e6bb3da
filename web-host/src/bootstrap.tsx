import { createRoot } from 'react-dom/client';
import { configureRequest } from '@atrium/sdk';
import { earlyFetch } from './early';
import { initI18n, initialLocale } from './i18n';
import { injectStyles } from './styles';
import { loadAntdLocale } from './locale';
import { Root } from './Root';

async function start() {
  configureRequest({ fetch: earlyFetch });
  injectStyles();
  await Promise.all([initI18n(), loadAntdLocale(initialLocale())]);
  createRoot(document.getElementById('root')!).render(<Root />);
}

void start();
