/**
 * The transfer plugin's federated module (`./App`): the import page and the export records under
 * /data-transfer. Widgets for other plugins: `./ImportWizard`, `./ExportButton`, `./WordExport`, and the
 * export flow with this plugin's texts, `./exportTask` (`runDataExport`, the SDK's `runExportTask`).
 */
import { Navigate } from 'react-router';
import { definePlugin } from '@atrium/sdk';
import { ExportRecords } from './pages/ExportRecords';
import { ImportPage } from './pages/ImportPage';

function Home() {
  return <Navigate to="/data-transfer/import" replace />;
}

export default definePlugin({
  name: 'transfer',
  routes: [
    { path: '/data-transfer/import', Component: ImportPage },
    { path: '/data-transfer/exports', Component: ExportRecords },
    { path: '/data-transfer', Component: Home },
  ],
});
