import { createRoot } from 'react-dom/client';
import { initI18n } from './i18n';
import { injectStyles } from './styles';
import { loadAntdLocale } from './locale';
import { Root } from './Root';

async function start() {
  injectStyles();
  await initI18n();
  await loadAntdLocale();
  createRoot(document.getElementById('root')!).render(<Root />);
}

void start();
