/**
 * The export flow of spec 4 and 7.2 for other plugins' pages, exposed as `./exportTask`: the SDK's flow
 * (`runExportTask`, the only one) with this plugin's texts for a failed and an endless task.
 *
 *   import { runDataExport } from 'atrium_transfer/exportTask';   // or loadRemote('atrium_transfer/exportTask')
 *   await runDataExport({ url: 'api/dyreport/chart/view/exportData', fileName: 'Sales',
 *                         columnList: [{ title: 'Region', key: 'region' }], params: { view, requestList } });
 *
 * A plugin that does not need these texts calls `runExportTask` from `@atrium/sdk` itself.
 */
import { runExportTask, translate, type ExportRecord, type ExportTaskOptions } from '@atrium/sdk';

export { EXPORT_DONE, EXPORT_FAILED } from '@atrium/sdk';

export type DataExportOptions = ExportTaskOptions;

export function runDataExport(options: DataExportOptions): Promise<ExportRecord> {
  const texts = {
    failed: translate('transfer:web.export.failed', 'Export failed'),
    timeout: translate('transfer:web.export.timeout', 'The export is taking too long'),
    ...options.texts,
  };
  return runExportTask({ ...options, texts });
}

export default runDataExport;
