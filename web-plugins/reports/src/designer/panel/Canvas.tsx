/**
 * The 24-column canvas (react-grid-layout): components are dropped from the palette, dragged, resized and
 * selected. Rows are as tall as the viewer draws them at this width, so the canvas shows the published look.
 * It fits the visible width by default; the zoom bar draws it at a chosen scale of the design width instead
 * (100 % = the design's own pixels), scrolling sideways when wider than the room.
 */
import ReactGridLayout, { noCompactor, useContainerWidth, type Layout, type LayoutItem } from 'react-grid-layout';
import { Button, Space, Tooltip } from 'antd';
import { local } from '@atrium/sdk';
import { useMemo, useState, type CSSProperties } from 'react';
import { DEFAULT_PANEL_WIDTH } from '../../model/layout';
import { panelBackground, panelScale, type Box } from '../../model/layout';
import type { PanelComponent, PanelStyle } from '../../model/types';
import { PanelContext, PanelStore } from '../../panel/store';
import { buildEnv } from '../../panel/PanelView';
import { applyLayout, canvasRowHeight, GRID_COLUMNS, layoutOf, type GridItem } from './gridLayout';
import { ItemBar, ItemBody, type ItemActions } from './CanvasItem';
import { TabsCanvas } from './TabsCanvas';
import { useDsT } from './i18n';

export const DROPPING_ID = '__dropping-elem__';
/** Room above the top row for a selected component's action bar. */
const BAR_SPACE = 26;
/** Below this the canvas scrolls sideways rather than shrinking components out of reach of the mouse. */
export const MIN_CANVAS_WIDTH = 800;
/** The zoom bar's steps (scales of the design width). */
export const ZOOM_STEPS = [0.25, 0.33, 0.5, 0.67, 0.75, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2];
/** 'fit': the visible width; a number: that scale of the design width. */
export type Zoom = 'fit' | number;
const ZOOM_KEY = 'reports.designer.zoom';

function storedZoom(): Zoom {
  const v = local.get<unknown>(ZOOM_KEY);
  return typeof v === 'number' && v >= ZOOM_STEPS[0] && v <= ZOOM_STEPS[ZOOM_STEPS.length - 1] ? v : 'fit';
}

/** The next step in or out from the scale shown now. */
export function zoomStep(scale: number, direction: 1 | -1): number {
  const eps = 0.005;
  if (direction > 0) return ZOOM_STEPS.find((z) => z > scale + eps) ?? ZOOM_STEPS[ZOOM_STEPS.length - 1];
  return [...ZOOM_STEPS].reverse().find((z) => z < scale - eps) ?? ZOOM_STEPS[0];
}

/** The canvas width in pixels for a zoom, the visible width and the panel's design width. */
export function canvasWidthFor(zoom: Zoom, visible: number, panelWidth: number | undefined): number {
  if (zoom === 'fit') return Math.max(visible, MIN_CANVAS_WIDTH);
  return Math.round((panelWidth && panelWidth > 0 ? panelWidth : DEFAULT_PANEL_WIDTH) * zoom);
}

function ZoomBar({ zoom, scale, onZoom }: { zoom: Zoom; scale: number; onZoom: (z: Zoom) => void }) {
  const { t } = useDsT();
  const percent = Math.round(scale * 100);
  return (
    <div data-testid="canvas-zoom" data-zoom={zoom === 'fit' ? 'fit' : String(zoom)} style={{ display: 'flex', justifyContent: 'flex-end', alignItems: 'center', gap: 8, marginBottom: 6 }}>
      <Space.Compact size="small">
        <Tooltip title={t('canvas.zoomOut')}>
          <Button size="small" aria-label={t('canvas.zoomOut')} data-testid="canvas-zoom-out" disabled={scale <= ZOOM_STEPS[0] + 0.005} onClick={() => onZoom(zoomStep(scale, -1))}>−</Button>
        </Tooltip>
        <Button size="small" tabIndex={-1} data-testid="canvas-zoom-value" style={{ minWidth: 58, pointerEvents: 'none' }}>{percent}%</Button>
        <Tooltip title={t('canvas.zoomIn')}>
          <Button size="small" aria-label={t('canvas.zoomIn')} data-testid="canvas-zoom-in" disabled={scale >= ZOOM_STEPS[ZOOM_STEPS.length - 1] - 0.005} onClick={() => onZoom(zoomStep(scale, 1))}>+</Button>
        </Tooltip>
      </Space.Compact>
      <Tooltip title={t('canvas.actualSizeHint')}>
        <Button size="small" data-testid="canvas-zoom-100" type={zoom === 1 ? 'primary' : 'default'} ghost={zoom === 1} onClick={() => onZoom(1)}>100%</Button>
      </Tooltip>
      <Tooltip title={t('canvas.fitHint')}>
        <Button size="small" data-testid="canvas-zoom-fit" type={zoom === 'fit' ? 'primary' : 'default'} ghost={zoom === 'fit'} onClick={() => onZoom('fit')}>{t('canvas.fit')}</Button>
      </Tooltip>
    </div>
  );
}

export interface CanvasProps {
  panelId: string;
  name: string;
  components: PanelComponent[];
  style: PanelStyle;
  actions: ItemActions;
  /** Bumped when a view was edited, so its chart loads again. */
  viewEpoch: Record<string, number>;
  /** The size of what the palette is dragging, or null. */
  dragging: { w: number; h: number } | null;
  activeTabs: Record<string, string>;
  onActiveTab: (tabsId: string, name: string) => void;
  onLayout: (components: PanelComponent[]) => void;
  onDropNew: (at: GridItem) => void;
  onTabPaneChange: (tabsId: string, tabName: string, content: PanelComponent[]) => void;
  onDeselect: () => void;
}

/** The viewer's panel state, for the charts and widgets the canvas draws: made again when the panel, its set
 * of components or its chart style change, not when a component moves (its charts keep their data). */
function usePreviewStore(panelId: string, name: string, components: PanelComponent[], style: PanelStyle): PanelStore {
  const key = JSON.stringify([panelId, components.filter((c) => c.type !== 'view' || c.propValue?.viewId).map((c) => (c.type === 'custom' ? c : c.id)), style.chart]);
  const make = () => ({ key, store: new PanelStore(buildEnv({ id: panelId, name, panelData: components, panelStyle: style }, undefined, true)) });
  const [made, setMade] = useState(make);
  if (made.key === key) return made.store;
  const next = make();
  setMade(next);
  return next.store;
}

export function Canvas(props: CanvasProps) {
  const { t } = useDsT();
  const { components, style, actions } = props;
  const measured = useContainerWidth({ initialWidth: 1000 });
  const { containerRef, mounted } = measured;
  const [zoom, setZoomState] = useState<Zoom>(storedZoom);
  const setZoom = (z: Zoom) => {
    setZoomState(z);
    if (z === 'fit') local.remove(ZOOM_KEY);
    else local.set(ZOOM_KEY, z);
  };
  const width = canvasWidthFor(zoom, measured.width, style.width);
  const store = usePreviewStore(props.panelId, props.name, components, style);
  const layout = useMemo(() => layoutOf(components, style.width), [components, style.width]);
  const rowHeight = canvasRowHeight(width, style.width);
  const colWidth = width / GRID_COLUMNS;
  const commit = (next: Layout) => {
    const placed = applyLayout(components, next.filter((l) => l.i !== DROPPING_ID), style.width);
    if (placed !== components) props.onLayout(placed);
  };
  const background: CSSProperties = { ...(panelBackground(style) as CSSProperties), minHeight: 480, position: 'relative', borderTop: `${BAR_SPACE}px solid #fff` };
  const dropSize = props.dragging || { w: 4, h: 6 };
  return (
    <PanelContext.Provider value={store}>
      <ZoomBar zoom={zoom} scale={panelScale(width, style.width)} onZoom={setZoom} />
      <div ref={containerRef} data-testid="designer-canvas-scroll" style={{ width: '100%', overflowX: 'auto' }}>
      <div
        className="dsg-canvas"
        data-testid="designer-canvas"
        data-scale={panelScale(width, style.width).toFixed(4)}
        style={{ ...background, width }}
        onClick={(e) => {
          if (e.target === e.currentTarget || (e.target as HTMLElement).classList.contains('react-grid-layout')) props.onDeselect();
        }}
      >
        {!components.length && !props.dragging && (
          <div data-testid="canvas-empty" style={{ position: 'absolute', inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center', color: '#8a93a6', pointerEvents: 'none' }}>
            {t('canvas.empty')}
          </div>
        )}
        {mounted && (
          <ReactGridLayout
            width={width}
            layout={layout}
            gridConfig={{ cols: GRID_COLUMNS, rowHeight, margin: [0, 0], containerPadding: [0, 0] }}
            dragConfig={{ enabled: true, cancel: '.dsg-nested,.dsg-item-bar' }}
            resizeConfig={{ enabled: true, handles: ['se'] }}
            dropConfig={{ enabled: true, defaultItem: dropSize }}
            droppingItem={{ i: DROPPING_ID, x: 0, y: 0, ...dropSize }}
            compactor={noCompactor}
            style={{ minHeight: 480 }}
            onDragStop={(l) => commit(l)}
            onResizeStop={(l) => commit(l)}
            onDrop={(_l: Layout, item: LayoutItem | undefined) => {
              if (item) props.onDropNew({ i: item.i, x: item.x, y: item.y, w: item.w, h: item.h });
            }}
          >
            {components.map((c, i) => {
              const cell = layout[i];
              const box: Box = { left: 0, top: 0, width: Math.round(cell.w * colWidth), height: Math.round(cell.h * rowHeight) };
              const viewKey = c.type === 'view' ? `${c.id}:${props.viewEpoch[String(c.propValue?.viewId)] || 0}` : c.id;
              return (
                <div
                  key={c.id}
                  data-testid={`canvas-item-${c.id}`}
                  data-type={c.type}
                  data-grid-cell={`${cell.x},${cell.y},${cell.w},${cell.h}`}
                  className={`dsg-item${actions.selectedId === c.id ? ' dsg-selected' : ''}`}
                  onClick={() => actions.onSelect(c.id)}
                >
                  <ItemBar id={c.id} actions={actions} />
                  {c.type === 'de-tabs' ? (
                    <TabsCanvas
                      component={c}
                      box={box}
                      actions={{ ...actions, onDuplicate: undefined }}
                      activeTab={props.activeTabs[c.id]}
                      onActiveTab={(name) => props.onActiveTab(c.id, name)}
                      onPaneChange={(tabName, content) => props.onTabPaneChange(c.id, tabName, content)}
                    />
                  ) : (
                    <ItemBody key={viewKey} component={c} box={box} />
                  )}
                </div>
              );
            })}
          </ReactGridLayout>
        )}
      </div>
      </div>
    </PanelContext.Provider>
  );
}
