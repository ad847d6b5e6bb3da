/** The live preview, drawn by the viewer's own chart and table components so it looks exactly like the panel. */
import { Spin } from 'antd';
import { useMemo, useState, type JSX } from 'react';
import { viewStyles, viewThreshold } from '../../charts/common';
import { tablePageSize } from '../../charts/tables';
import { ChartBody } from '../../panel/ViewCard';
import { TableView } from '../../panel/TableView';
import { useDT } from '../data/i18n';
import { isTableKind } from './kinds';
import { isDrawable, viewFromDraft, type ViewDraft } from './model';
import { useCalcPreview } from './useCalcPreview';

export function ViewPreview({ draft, height }: { draft: ViewDraft; height: number }) {
  const { t } = useDT();
  const { result, error, loading } = useCalcPreview(draft);
  const [page, setPage] = useState(1);
  // the latest style over the last data: colours, labels and legend redraw at once
  const view = useMemo(() => {
    if (!result) return null;
    const own = viewFromDraft(draft);
    return { ...result, customAttr: own.customAttr, customStyle: own.customStyle, title: own.title, name: own.name };
  }, [result, draft]);
  const styles = useMemo(() => (view ? viewStyles(view) : null), [view]);
  const drawable = isDrawable(draft);
  const state = error !== null ? 'error' : loading ? 'loading' : view ? 'ready' : 'empty';

  let body: JSX.Element | null = null;
  if (!drawable) body = <Hint text={draft.tableId ? t('view.needQuota') : t('view.pickDataset')} />;
  else if (error !== null) body = <Hint text={error || t('view.previewFailed')} danger testId="view-preview-error" />;
  else if (view?.data && styles)
    body = isTableKind(view.type) ? (
      <TableView view={view} data={view.data} styles={styles} threshold={viewThreshold(styles)} page={page} pageSize={tablePageSize(styles.attr, view.pageSize)} sort={null} onSort={() => undefined} onPage={setPage} />
    ) : (
      <ChartBody view={view} data={view.data} />
    );

  return (
    <div data-testid="view-preview" data-state={state} data-kind={view?.type || draft.type} style={{ position: 'relative', height, background: '#fff', border: '1px solid #e0e4ec', borderRadius: 6, padding: 8, display: 'flex', flexDirection: 'column' }}>
      <div style={{ fontWeight: 600, fontSize: 14, marginBottom: 4, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{draft.title || draft.name || t('view.untitled')}</div>
      <div style={{ flex: 1, minHeight: 0, position: 'relative' }}>{body}</div>
      {loading && (
        <div style={{ position: 'absolute', inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center', pointerEvents: 'none' }}>
          <Spin size="small" />
        </div>
      )}
    </div>
  );
}

function Hint({ text, danger, testId }: { text: string; danger?: boolean; testId?: string }) {
  return (
    <div data-testid={testId} style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', height: '100%', color: danger ? '#d4380d' : '#8d97ab', textAlign: 'center', padding: 12 }}>
      {text}
    </div>
  );
}
