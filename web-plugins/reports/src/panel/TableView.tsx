/**
 * Tables (spec 2.3, 4, 9): table-info with pages from the server, table-normal and table-pivot; a header
 * click cycles the sort (ascending, descending, none) and queries again; right click copies a cell.
 */
import { App } from 'antd';
import { useMemo, type CSSProperties } from 'react';
import {
  cellColor, cellText, flatTable, leafColumns, pageCount, pagerPages, pivotTable, sortRows, tableLook, type SortOrder, type TableColumn,
} from '../charts/tables';
import type { Styles, Threshold } from '../charts/common';
import type { ChartData, ChartView } from '../model/types';
import { useRT } from '../i18n';

export interface TableSort {
  key: string;
  fieldId?: string;
  order: SortOrder;
}

export interface TableViewProps {
  view: ChartView;
  data: ChartData;
  styles: Styles;
  threshold: Threshold;
  page: number;
  pageSize: number;
  sort: TableSort | null;
  onSort?: (column: TableColumn) => void;
  onPage?: (page: number) => void;
  /** Show every row without a pager (the details dialog). */
  plain?: boolean;
}

/** Copies text to the clipboard (with a fallback for pages without the async clipboard). */
export async function copyText(text: string): Promise<void> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return;
    }
  } catch {
    /* fall back */
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  document.execCommand('copy');
  area.remove();
}

/** Header rows of nested columns (pivot groups) with their spans. */
function headerRows(columns: TableColumn[]): { col: TableColumn; colSpan: number; rowSpan: number }[][] {
  const depth = (cs: TableColumn[]): number => Math.max(1, ...cs.map((c) => (c.children ? 1 + depth(c.children) : 1)));
  const total = depth(columns);
  const rows: { col: TableColumn; colSpan: number; rowSpan: number }[][] = Array.from({ length: total }, () => []);
  const walk = (cs: TableColumn[], level: number) => {
    for (const c of cs) {
      if (c.children && c.children.length) {
        rows[level].push({ col: c, colSpan: leafColumns(c.children).length, rowSpan: 1 });
        walk(c.children, level + 1);
      } else {
        rows[level].push({ col: c, colSpan: 1, rowSpan: total - level });
      }
    }
  };
  walk(columns, 0);
  return rows;
}

export function TableView({ view, data, styles, threshold, page, pageSize, sort, onSort, onPage, plain }: TableViewProps) {
  const { t, locale } = useRT();
  const { message } = App.useApp();
  const look = tableLook(styles);
  const kind = view.type;
  // numbers with the locale's separators, each column in one format
  const model = useMemo(() => (kind === 'table-pivot' ? pivotTable(data, t('table.total'), locale) : flatTable(data, locale)), [kind, data, t, locale]);
  const leaves = leafColumns(model.columns);
  const serverPaged = kind === 'table-info';
  const sorted = useMemo(() => (sort && kind !== 'table-pivot' ? sortRows(model.rows, sort.key, sort.order) : model.rows), [model.rows, sort, kind]);
  const total = serverPaged ? model.total : sorted.length;
  const pages = pageCount(total, pageSize);
  const rows = plain || serverPaged ? sorted : sorted.slice((page - 1) * pageSize, page * pageSize);
  const header = headerRows(model.columns);

  const copy = async (value: unknown, col: TableColumn) => {
    await copyText(cellText(value, col));
    message.success(t('table.copied'));
  };

  const th: CSSProperties = {
    background: look.headerBg,
    color: look.headerColor,
    fontSize: look.headerFontSize,
    fontWeight: 600,
    padding: '0 8px',
    height: look.rowHeight,
    border: `1px solid ${look.border}`,
    whiteSpace: 'nowrap',
    position: 'sticky',
    top: 0,
    zIndex: 1,
  };
  return (
    <div className="rpt-table" data-testid="report-table" data-kind={kind} style={{ display: 'flex', flexDirection: 'column', width: '100%', height: '100%' }}>
      <div style={{ flex: 1, overflow: 'auto', minHeight: 0 }}>
        <table style={{ borderCollapse: 'collapse', width: '100%', fontSize: look.itemFontSize }}>
          <thead>
            {header.map((row, ri) => (
              <tr key={ri}>
                {row.map(({ col, colSpan, rowSpan }) => {
                  const active = sort?.key === col.key ? sort.order : 'none';
                  const sortable = !!onSort && !col.children && kind !== 'table-pivot';
                  return (
                    <th
                      key={col.key}
                      colSpan={colSpan}
                      rowSpan={rowSpan}
                      style={{ ...th, cursor: sortable ? 'pointer' : 'default', textAlign: col.numeric ? 'right' : 'left' }}
                      data-sort={sortable ? active : undefined}
                      onClick={sortable ? () => onSort!(col) : undefined}
                    >
                      {col.title}
                      {sortable && <span className="rpt-sort" aria-hidden style={{ marginLeft: 4, opacity: active === 'none' ? 0.35 : 1 }}>{active === 'asc' ? '▲' : active === 'desc' ? '▼' : '⇅'}</span>}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={i} style={{ height: look.rowHeight, background: look.stripe && i % 2 ? look.stripe : look.itemBg, fontWeight: r.__total ? 600 : undefined }}>
                {leaves.map((col) => {
                  const v = r[col.key];
                  const color = cellColor(v, col, threshold);
                  return (
                    <td
                      key={col.key}
                      onContextMenu={(e) => {
                        e.preventDefault();
                        void copy(v, col);
                      }}
                      style={{ padding: '0 8px', height: look.rowHeight, border: `1px solid ${look.border}`, color: color || look.itemColor, textAlign: col.numeric ? 'right' : 'left', whiteSpace: 'nowrap' }}
                    >
                      {cellText(v, col)}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
        {!rows.length && <div className="rpt-empty" style={{ padding: 16, textAlign: 'center', color: '#8d97ab' }}>{t('view.noData')}</div>}
      </div>
      {!plain && pages > 1 && (
        <Pager page={page} pages={pages} total={total} onPage={(p) => onPage?.(p)} />
      )}
    </div>
  );
}

/** The pager: previous, at most 5 page numbers, next, and the row count (spec 9). */
export function Pager({ page, pages, total, onPage }: { page: number; pages: number; total: number; onPage: (p: number) => void }) {
  const { t } = useRT();
  const btn = (active: boolean, disabled = false): CSSProperties => ({
    minWidth: 26,
    height: 24,
    margin: '0 2px',
    border: `1px solid ${active ? 'var(--at-primary, #204BE3)' : '#d9dde6'}`,
    borderRadius: 4,
    background: active ? 'var(--at-primary, #204BE3)' : '#fff',
    color: active ? '#fff' : disabled ? '#bbb' : '#1f2533',
    cursor: disabled ? 'not-allowed' : 'pointer',
    fontSize: 12,
  });
  return (
    <div className="rpt-pager" data-testid="report-pager" style={{ display: 'flex', alignItems: 'center', justifyContent: 'flex-end', padding: '6px 4px', gap: 2, fontSize: 12 }}>
      <span style={{ marginRight: 8, color: '#6b7489' }}>{t('table.rows', { total })}</span>
      <button type="button" style={btn(false, page <= 1)} disabled={page <= 1} onClick={() => onPage(page - 1)} aria-label={t('table.prev')}>‹</button>
      {pagerPages(page, pages).map((p) => (
        <button type="button" key={p} style={btn(p === page)} aria-current={p === page ? 'page' : undefined} onClick={() => p !== page && onPage(p)}>{p}</button>
      ))}
      <button type="button" style={btn(false, page >= pages)} disabled={page >= pages} onClick={() => onPage(page + 1)} aria-label={t('table.next')}>›</button>
    </div>
  );
}
