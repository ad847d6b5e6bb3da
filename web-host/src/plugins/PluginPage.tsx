import { useCallback, useEffect, useRef, useState, type ComponentType } from 'react';
import { matchPath, useLocation } from 'react-router';
import { Button, Result, Spin, Typography } from 'antd';
import { ReloadIcon } from '../icons';
import { useT, type ManifestPlugin, type TaggedPlugin } from '@atrium/sdk';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { NotFound } from '../pages/Errors';
import { loadPlugin, resetPlugin } from './registry';

/** Chunk load timeout (spec 8): 120 s. */
const LOAD_TIMEOUT = 120000;

function withTimeout<T>(promise: Promise<T>, ms: number, text: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(text)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

type State = { status: 'loading' } | { status: 'ready'; plugin: TaggedPlugin } | { status: 'error'; error: Error };

export function usePlugin(plugin: ManifestPlugin, module = './App') {
  const t = useT();
  // the time-out message in the current language, without a language switch reloading the page (and
  // losing what is on it)
  const timeoutText = useRef(t);
  timeoutText.current = t;
  const [state, setState] = useState<State>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let alive = true;
    setState({ status: 'loading' });
    withTimeout(loadPlugin(plugin, module), LOAD_TIMEOUT, timeoutText.current('plugin.timeout'))
      .then((p) => alive && setState({ status: 'ready', plugin: p }))
      .catch((error: Error) => alive && setState({ status: 'error', error }));
    return () => {
      alive = false;
    };
  }, [plugin, module, attempt]);
  const retry = useCallback(() => {
    resetPlugin(plugin);
    setAttempt((n) => n + 1);
  }, [plugin]);
  return { state, retry };
}

function PluginError({ name, error, onRetry }: { name: string; error: Error; onRetry: () => void }) {
  const t = useT();
  return (
    <div className="at-page at-center" data-testid="plugin-error">
      <Result
        status="error"
        title={t('plugin.loadFailed', { name: t(`apps.${name}`, { defaultValue: name }) })}
        subTitle={
          <>
            {t('plugin.loadFailedText')}
            <Typography.Paragraph type="secondary" style={{ marginTop: 8, fontSize: 12 }} ellipsis={{ rows: 2, tooltip: error.message }}>
              {error.message}
            </Typography.Paragraph>
          </>
        }
        extra={<Button type="primary" icon={<ReloadIcon />} onClick={onRetry}>{t('common.retry')}</Button>}
      />
    </div>
  );
}

function PluginContent({ plugin, prefix }: { plugin: TaggedPlugin; prefix: string }) {
  const location = useLocation();
  if (plugin.App) {
    const App = plugin.App;
    return <App prefix={prefix} />;
  }
  for (const route of plugin.routes || []) {
    if (matchPath({ path: route.path, end: !route.path.endsWith('*') }, location.pathname)) {
      const C = route.Component as ComponentType<{ prefix: string }>;
      return <C prefix={prefix} />;
    }
  }
  return <NotFound />;
}

/** A plugin page in a tab: loads the remote's `./App`, shows errors in the tab with a retry. */
export function PluginPage({ plugin, prefix }: { plugin: ManifestPlugin; prefix: string }) {
  const t = useT();
  const { state, retry } = usePlugin(plugin);
  if (state.status === 'loading') {
    return (
      <div className="at-page at-center">
        <Spin size="large" tip={t('plugin.loading')}><div style={{ width: 160, height: 80 }} /></Spin>
      </div>
    );
  }
  if (state.status === 'error') return <PluginError name={plugin.name} error={state.error} onRetry={retry} />;
  return (
    <ErrorBoundary fallback={(error, reset) => <PluginError name={plugin.name} error={error} onRetry={() => { retry(); reset(); }} />}>
      <PluginContent plugin={state.plugin} prefix={prefix} />
    </ErrorBoundary>
  );
}
