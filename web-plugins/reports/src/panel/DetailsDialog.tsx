/** Details (spec 2.3): 70 percent wide, 20vh from the top; the chart on the left half (not for tables),
 * the data as a table on the right; export to Excel in the footer. */
import { App, Button, Modal } from 'antd';
import { useState } from 'react';
import type { Access, DataBody } from '../api';
import { viewStyles, viewThreshold, type Json } from '../charts/common';
import type { ChartView } from '../model/types';
import { useRT } from '../i18n';
import { TableView } from './TableView';
import { ChartBody, isTable } from './ViewCard';
import { exportViews } from './exporting';

export function DetailsDialog({ view, body, panelChart, canExport, panelId, access, onClose }: {
  view: ChartView;
  body: DataBody;
  panelChart?: Json;
  canExport: boolean;
  panelId: string;
  access?: Access;
  onClose: () => void;
  modal?: unknown;
}) {
  const { t } = useRT();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const styles = viewStyles(view, panelChart);
  const table = isTable(view.type);
  const tableView: ChartView = table ? view : { ...view, type: 'table-normal' };
  const doExport = async () => {
    setBusy(true);
    try {
      await exportViews([{ view, body, panelId, access }]);
      message.success(t('export.done'));
    } catch (e) {
      message.warning((e as Error)?.message || t('export.failed'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={view.title || view.name}
      width="70vw"
      style={{ top: '20vh' }}
      onCancel={onClose}
      destroyOnHidden
      footer={canExport ? <Button type="primary" loading={busy} onClick={() => void doExport()} data-testid="details-export">{t('view.exportExcel')}</Button> : null}
      rootClassName="rpt-details"
    >
      <div data-testid="details-dialog" style={{ display: 'flex', gap: 12, height: '50vh' }}>
        {!table && (
          <div style={{ width: '50%', height: '100%' }} data-testid="details-chart">
            <ChartBody view={view} data={view.data!} panelChart={panelChart} />
          </div>
        )}
        <div style={{ width: table ? '100%' : '50%', height: '100%' }} data-testid="details-table">
          <TableView view={tableView} data={view.data!} styles={styles} threshold={viewThreshold(styles)} page={1} pageSize={20} sort={null} plain />
        </div>
      </div>
    </Modal>
  );
}
