/**
 * A view on a panel (spec 2.3, 4): fetches the definition and the data for the current filters, linkage,
 * drill and page; draws the chart, table or text; shows the server's message when the data call fails;
 * handles clicks (drill, linkage, jump), the details dialog and the export.
 */
import { App, Button, Spin, Tooltip } from 'antd';
import { lazy, memo, Suspense, useCallback, useEffect, useEffectEvent, useLayoutEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { api, type DataBody } from '../api';
import { columnFormat, fontSize, formatValue, isObject, singleValue, thresholdColor, viewStyles, viewThreshold, withAlpha, type Json } from '../charts/common';
import type { ChartClick } from '../charts/EchartsChart';
import { nextSort, tablePageSize, TABLE_KINDS, type TableColumn } from '../charts/tables';
import { clickActions, drillStep, linkageFilters, needsMenu, type ClickAction } from '../model/jump';
import type { ChartData, ChartView, DrillItem, PanelComponent } from '../model/types';
import { useRT } from '../i18n';
import { usePanel, usePanelStore } from './store';
import { TableView, type TableSort } from './TableView';
import { exportViews } from './exportLater';
import { canExportHere, EXPORT_BUTTON, useExportGranted } from './exportGrant';
import { dataBody, dataKey } from './dataBody';
import { engineOf, preloadFor } from '../charts/loaders';
import { useChart } from '../charts/useChart';
import { DrawTurn, useDrawTurn } from '../charts/drawTurn';
import { DetailsIcon, ExportIcon } from './icons';

// what only a click needs comes with the click, not with the panel
const DetailsDialog = lazy(() => import(/* webpackChunkName: "details" */ './DetailsDialog').then((m) => ({ default: m.DetailsDialog })));
const runJump: typeof import('./jumping').runJump = (args) => {
  void import(/* webpackChunkName: "jumping" */ './jumping').then((m) => m.runJump(args));
};

const NO_DRILL: DrillItem[] = [];

/** The header's icon buttons: small and quiet beside the title. */
const HEAD_BUTTON: CSSProperties = { width: 22, height: 22, minWidth: 22, padding: 0, color: '#6b7489' };

export function isTable(type: string): boolean {
  return (TABLE_KINDS as readonly string[]).includes(type);
}

export function isTextKind(type: string): boolean {
  return type.includes('text') || type === 'label';
}

export function isMobile(): boolean {
  return typeof window !== 'undefined' && window.innerWidth < 768;
}

/** The title's look from customStyle.text. */
function titleStyle(style: Json): CSSProperties | null {
  const text = isObject(style.text) ? style.text : {};
  if (text.show === false) return null;
  return {
    fontSize: fontSize(text.fontSize, 14),
    color: text.color || undefined,
    textAlign: (text.hPosition as CSSProperties['textAlign']) || 'left',
    fontStyle: text.isItalic ? 'italic' : undefined,
    fontWeight: text.isBolder === false ? 400 : 600,
  };
}

function backgroundStyle(style: Json): CSSProperties {
  const bg = isObject(style.background) ? style.background : null;
  if (!bg) return { background: '#fff', borderRadius: 4 };
  return { background: withAlpha(bg.color || '#ffffff', bg.alpha ?? 100), borderRadius: Number(bg.borderRadius ?? 4) };
}

export interface ChartBodyProps {
  view: ChartView;
  data: ChartData;
  panelChart?: Json;
  onClick?: (c: ChartClick) => void;
}

/** A chart by its render engine, or the text label. */
function ChartOrText({ view, data, panelChart, onClick }: ChartBodyProps) {
  const { t, locale } = useRT();
  const build = useMemo(() => ({ mobile: isMobile(), panelChart, locale }), [panelChart, locale]);
  const text = isTextKind(view.type);
  const empty = !data.series?.length || (!data.x?.length && !data.series.some((s) => s.data?.some(Boolean)));
  const chart = useChart(text || empty ? null : engineOf(view.render));
  if (text) return <TextBody view={view} data={data} panelChart={panelChart} />;
  if (empty) return <div className="rpt-empty" style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', height: '100%', color: '#8d97ab' }}>{t('view.noData')}</div>;
  if (chart.failed) return <div className="rpt-view-error" style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', height: '100%', color: '#d4380d' }}>{t('view.failed')}</div>;
  const Chart = chart.component;
  if (Chart) return <Chart view={view} data={data} build={build} onClick={onClick} />;
  // the chart's place while its engine loads: a chart not drawn yet, for whoever waits for the drawing
  return <div className="rpt-chart" data-engine={engineOf(view.render)} data-kind={view.type} style={{ width: '100%', height: '100%' }} />;
}

/** Drawn again only for another view, data, panel style or click handler. */
export const ChartBody = memo(ChartOrText);

/** Text labels (spec 2.3): one value large, or label: value lines. */
function TextBody({ view, data, panelChart }: ChartBodyProps) {
  const { locale } = useRT();
  const s = viewStyles(view, panelChart);
  const threshold = viewThreshold(s);
  const label = isObject(s.attr.label) ? s.attr.label : {};
  const series = data.series || [];
  // each quota's numbers in one format down the list (the decimals of its most precise value)
  const formats = series.map((s) => columnFormat((s.data || []).map((p) => p?.value), s.property?.valueFormat));
  if (!data.x?.length) {
    const value = singleValue(data);
    const color = thresholdColor(value, threshold) || label.color || undefined;
    return (
      <div className="rpt-text-value" data-testid="report-text-value" style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', height: '100%' }}>
        <div style={{ fontSize: fontSize(label.fontSize, 32), fontWeight: 600, color }}>{formatValue(value, series[0]?.property?.valueFormat, locale)}</div>
        <div style={{ fontSize: 12, color: '#6b7489' }}>{series[0]?.name}</div>
      </div>
    );
  }
  return (
    <div className="rpt-text-value" data-testid="report-text-value" style={{ height: '100%', overflow: 'auto', padding: '4px 8px' }}>
      {data.x.map((x, i) => (
        <div key={x} style={{ display: 'flex', justifyContent: 'space-between', lineHeight: '26px', fontSize: fontSize(label.fontSize, 14) }}>
          <span>{x}</span>
          <span style={{ fontWeight: 600, color: thresholdColor(series[0]?.data[i]?.value, threshold) || label.color }}>
            {series.map((s, j) => formatValue(s.data[i]?.value ?? null, formats[j], locale)).join(' / ')}
          </span>
        </div>
      ))}
    </div>
  );
}

interface Menu {
  x: number;
  y: number;
  click: ChartClick;
  actions: ClickAction[];
}

export function ViewCard({ component, height }: { component: PanelComponent; height: number }) {
  const { t } = useRT();
  const { message, modal } = App.useApp();
  const store = usePanelStore();
  const { env } = store;
  const viewId = String(component.propValue?.viewId || '');
  const applied = usePanel((s) => s.applied);
  const linkage = usePanel((s) => s.linkage);
  const drillMap = usePanel((s) => s.drill);
  const track = usePanel((s) => s.track);
  const epoch = usePanel((s) => s.epoch);
  const drill = drillMap[viewId] || NO_DRILL;

  const [def, setDef] = useState<ChartView | null>(null);
  const [result, setResult] = useState<ChartView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<TableSort | null>(null);
  const [menu, setMenu] = useState<Menu | null>(null);
  const [details, setDetails] = useState(false);
  const [exporting, setExporting] = useState(false);

  // the designer makes a new store when its components change: the definition is asked again only for another
  // view or panel (the store's calls are read when it is asked)
  const definition = useEffectEvent((id: string) => store.calls.view(id));
  useEffect(() => {
    let alive = true;
    definition(viewId)
      .then((v) => {
        if (!alive) return;
        setDef(v);
        // a g2plot view starts that engine's chunks, a map its map, with its definition, before its data arrives
        if (v) preloadFor(v);
      })
      .catch(() => undefined);
    return () => {
      alive = false;
    };
  }, [viewId, env.panelId, env.access]);

  const view = result || def;
  const styles = useMemo(() => (view ? viewStyles(view, env.style.chart) : null), [view, env.style.chart]);
  const type = view?.type || '';
  const pageSize = styles && isTable(type) ? tablePageSize(styles.attr, view?.pageSize) : undefined;
  const sizeFromAttr = styles && isObject(styles.attr.size) && styles.attr.size.tablePageSize ? pageSize : undefined;
  const resultMode = view?.resultMode;
  const resultCount = view?.resultCount;

  const body: DataBody = useMemo(
    () => dataBody(viewId, { applied, linkage, track }, drill, { page, sort, pageSize: sizeFromAttr, resultMode, resultCount }, env.access),
    [applied, linkage, track, drill, page, sort, sizeFromAttr, resultMode, resultCount, viewId, env.access],
  );
  const bodyKey = dataKey(body);

  // the data is asked again when the body changes in content (not in identity), on a refresh (epoch) or for
  // another view or panel; the first answer may come with the panel's first load
  const loadData = useEffectEvent(() => (epoch === 0 && store.calls.takeData(viewId, bodyKey)) || api.data(viewId, env.panelId, body, env.access));
  const failedText = useEffectEvent(() => t('view.failed'));
  useEffect(() => {
    let alive = true;
    setLoading(true);
    loadData()
      .then((r) => {
        if (!alive) return;
        // spec 4: success only when the code is 800 and success is true
        if (r && r.success === true && r.data) {
          setResult(r);
          setError(null);
        } else {
          setError((r as unknown as { msg?: string })?.msg || failedText());
        }
      })
      .catch((e: Error) => alive && setError(e?.message || failedText()))
      .finally(() => alive && setLoading(false));
    return () => {
      alive = false;
    };
  }, [bodyKey, epoch, viewId, env.panelId, env.access]);

  // a new filter, linkage or drill starts the table at its first page again
  const filterKey = JSON.stringify([body.filter, body.linkageFilters, body.urlFilter, body.drill]);
  useEffect(() => setPage(1), [filterKey]);

  const onSort = useCallback((col: TableColumn) => {
    setSort((s) => {
      const order = nextSort(s?.key === col.key ? s.order : 'none');
      return order === 'none' ? null : { key: col.key, fieldId: col.fieldId, order };
    });
    setPage(1);
  }, []);

  const act = useCallback(
    (action: ClickAction, click: ChartClick) => {
      setMenu(null);
      const dims = click.dimensionList;
      if (!view) return;
      if (action === 'drill') {
        const step = drillStep(view, drill, dims);
        if (step) store.setDrill(viewId, [...drill, step]);
      } else if (action === 'linkage') {
        store.setLinkage(viewId, linkageFilters(viewId, dims, store.getState().linkageInfo));
      } else {
        runJump({ store, view, click, data: result?.data, warn: (key) => message.warning(t(key)) });
      }
    },
    [view, drill, store, viewId, result, message, t],
  );

  const onClick = useCallback(
    (click: ChartClick) => {
      if (!view) return;
      if (!click.dimensionList.length) {
        if (view.type === 'map') message.warning(t('map.noFields'));
        return;
      }
      // the panel's linkage and jump tables as they are at the click: the cards need not draw again when they arrive
      const { linkageInfo, jumps } = store.getState();
      const actions = clickActions(view, click.dimensionList, drill, linkageInfo, jumps);
      if (!actions.length) return;
      if (!needsMenu(actions)) act(actions[0], click);
      else setMenu({ x: click.x, y: click.y, click, actions });
    },
    [view, drill, store, act, message, t],
  );

  // one handler for the chart's whole life: a new linkage or jump table changes what a click does, not the chart
  const clickRef = useRef(onClick);
  useLayoutEffect(() => {
    clickRef.current = onClick;
  });
  const onChartClick = useCallback((click: ChartClick) => clickRef.current(click), []);

  // the click menu closes on a press anywhere outside it (the press that opened it is over by then)
  const menuRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!menu) return undefined;
    const close = (e: MouseEvent) => {
      if (!menuRef.current?.contains(e.target as Node)) setMenu(null);
    };
    document.addEventListener('mousedown', close, true);
    return () => document.removeEventListener('mousedown', close, true);
  }, [menu]);

  // the card is built on its turn: in the window at once, below it when scrolled near or the page idle; until
  // then it is its frame and title only (no buttons, no chart or table), its data asked for all the same
  const cardRef = useRef<HTMLDivElement>(null);
  const turn = useDrawTurn(cardRef, true);

  const title = view?.title || view?.name || '';
  const tStyle = styles ? titleStyle(styles.style) : { fontSize: 14, fontWeight: 600 };
  const isSource = Object.values(linkage).some((e) => e.source === viewId);
  const exportGranted = useExportGranted();
  const canExport = exportGranted && canExportHere(env) && (!env.privileges || env.privileges.split(',').includes('export'));

  const doExport = async () => {
    if (!view || !result) return;
    setExporting(true);
    try {
      await exportViews([{ view: result, body, panelId: env.panelId, access: env.access }], (key, opts) => message.info(t(key, opts)));
      message.success(t('export.done'));
    } catch (e) {
      message.warning((e as Error)?.message || t('export.failed'));
    } finally {
      setExporting(false);
    }
  };

  return (
    <div
      ref={cardRef}
      className="rpt-view"
      data-testid="report-view"
      data-view-id={viewId}
      data-kind={type}
      data-render={view?.render || ''}
      data-state={error ? 'error' : loading && !result ? 'loading' : 'ready'}
      style={{ position: 'relative', width: '100%', height, display: 'flex', flexDirection: 'column', overflow: 'hidden', ...(styles ? backgroundStyle(styles.style) : { background: '#fff', borderRadius: 4 }) }}
    >
      <div className="rpt-view-head" style={{ display: 'flex', alignItems: 'center', gap: 6, padding: '6px 8px 2px', minHeight: 28 }}>
        {tStyle && <div className="rpt-view-title" style={{ flex: 1, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', ...tStyle }}>{title}</div>}
        {!tStyle && <div style={{ flex: 1 }} />}
        {turn && isSource && (
          <Button size="small" type="link" data-testid="clear-linkage" onClick={() => store.clearLinkage(viewId)} style={{ padding: 0, height: 20 }}>
            {t('view.clearLinkage')}
          </Button>
        )}
        {turn && result && (
          <Tooltip title={t('view.details')}>
            <Button
              size="small"
              type="text"
              data-testid="view-details"
              aria-label={title ? t('view.detailsOf', { title }) : t('view.details')}
              icon={<DetailsIcon />}
              onClick={() => setDetails(true)}
              style={HEAD_BUTTON}
            />
          </Tooltip>
        )}
        {turn && result && canExport && (
          <Tooltip title={t('view.export')}>
            <Button
              size="small"
              type="text"
              data-testid="view-export"
              data-button-code={EXPORT_BUTTON}
              aria-label={title ? t('view.exportOf', { title }) : t('view.export')}
              icon={<ExportIcon />}
              loading={exporting}
              onClick={() => void doExport()}
              style={HEAD_BUTTON}
            />
          </Tooltip>
        )}
      </div>
      {drill.length > 0 && (
        <div className="rpt-drill" data-testid="drill-breadcrumb" style={{ display: 'flex', flexWrap: 'wrap', gap: 4, padding: '0 8px', fontSize: 12 }}>
          <a onClick={() => store.setDrill(viewId, [])}>{t('view.drillRoot')}</a>
          {drill.map((d, i) => (
            <span key={i}>
              <span style={{ color: '#8d97ab' }}> / </span>
              {i === drill.length - 1 ? <span>{d.label}</span> : <a onClick={() => store.setDrill(viewId, drill.slice(0, i + 1))}>{d.label}</a>}
            </span>
          ))}
        </div>
      )}
      <div className="rpt-view-body" style={{ position: 'relative', flex: 1, minHeight: 0, padding: '2px 6px 6px' }}>
        {error ? (
          <div className="rpt-view-error" data-testid="view-error" style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', height: '100%', color: '#d4380d', textAlign: 'center', padding: 8 }}>
            {error}
          </div>
        ) : result?.data ? (
          isTable(type) ? (
            turn ? (
              <TableView
                view={result}
                data={result.data}
                styles={styles!}
                threshold={viewThreshold(styles!)}
                page={page}
                pageSize={pageSize || 20}
                sort={sort}
                onSort={onSort}
                onPage={setPage}
              />
            ) : (
              <div className="rpt-table-pending" style={{ height: '100%' }} />
            )
          ) : turn || isTextKind(type) ? (
            <DrawTurn.Provider value>
              <ChartBody view={result} data={result.data} panelChart={env.style.chart} onClick={onChartClick} />
            </DrawTurn.Provider>
          ) : (
            <div className="rpt-chart" data-rendered="0" data-kind={type} style={{ width: '100%', height: '100%' }} />
          )
        ) : null}
        {turn && loading && (
          <div style={{ position: 'absolute', inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center', pointerEvents: 'none' }}>
            <Spin size="small" />
          </div>
        )}
        {menu && (
          <div
            ref={menuRef}
            className="rpt-click-menu"
            data-testid="click-menu"
            style={{ position: 'absolute', left: Math.max(0, menu.x - 10), top: Math.max(0, menu.y), zIndex: 10, background: '#fff', border: '1px solid #e0e4ec', borderRadius: 6, boxShadow: '0 4px 12px rgba(0,0,0,.12)', padding: 4, minWidth: 96 }}
          >
            {menu.actions.map((a) => (
              <div key={a} role="menuitem" data-action={a} onClick={() => act(a, menu.click)} style={{ padding: '4px 10px', cursor: 'pointer', borderRadius: 4, fontSize: 13 }}>
                {t(`menu.${a}`)}
              </div>
            ))}
          </div>
        )}
      </div>
      {details && result && (
        <Suspense fallback={null}>
          <DetailsDialog view={result} body={body} panelChart={env.style.chart} canExport={canExport} panelId={env.panelId} access={env.access} onClose={() => setDetails(false)} modal={modal} />
        </Suspense>
      )}
    </div>
  );
}
