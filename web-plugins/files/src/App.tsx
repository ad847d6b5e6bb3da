/**
 * The files plugin's federated module (`./App`): the file centre at /fileCenter and the document editor
 * frame at /fileCenter/editor (loaded on that route only). Its widgets are exposed for other plugins too:
 * `./IconPicker` (the 840 px icon picker) and `./ImageUpload`.
 */
import { lazy, Suspense } from 'react';
import { Spin } from 'antd';
import { definePlugin } from '@atrium/sdk';
import { FileCenter } from './pages/FileCenter';

const DocumentEditor = lazy(() => import('./pages/DocumentEditor'));

function EditorRoute() {
  return (
    <Suspense fallback={<div className="at-page at-center"><Spin /></div>}>
      <DocumentEditor />
    </Suspense>
  );
}

export default definePlugin({
  name: 'files',
  routes: [
    { path: '/fileCenter/editor', Component: EditorRoute },
    { path: '/fileCenter/*', Component: FileCenter },
  ],
});
