/**
 * The error pages, downloaded the first time one is shown: antd's `Result` and its illustrations are not
 * part of the first page. Each carries its own Suspense boundary, so callers use them as plain components.
 */
import { Suspense, lazy, type ComponentProps, type ComponentType } from 'react';
import type * as Pages from './Errors';

type Name = 'NotFound' | 'NoPermission' | 'NotInstalled' | 'BootError';

const load = () => import(/* webpackChunkName: "errors" */ './Errors');

function deferred<K extends Name>(name: K): ComponentType<ComponentProps<(typeof Pages)[K]>> {
  const Page = lazy(() => load().then((m) => ({ default: m[name] as ComponentType<any> })));
  const Deferred = (props: ComponentProps<(typeof Pages)[K]>) => (
    <Suspense fallback={null}>
      <Page {...(props as object)} />
    </Suspense>
  );
  Deferred.displayName = name;
  return Deferred;
}

export const NotFound = deferred('NotFound');
export const NoPermission = deferred('NoPermission');
export const NotInstalled = deferred('NotInstalled');
export const BootError = deferred('BootError');
