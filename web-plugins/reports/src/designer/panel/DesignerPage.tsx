/**
 * /dynamic-report/design/{panelId}: the panel designer. Components come from the palette onto a 24-column
 * canvas, are moved, resized and set up on the right; every change can be undone. The draft is saved on
 * request, previewed, and published as a new version that viewers then see.
 */
import { App, Button, Modal, Result, Spin } from 'antd';
import { setTabTitle } from '@atrium/sdk';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { ChartView } from '../../model/types';
import { PanelView as PanelViewer } from '../../panel/PanelView';
import { useIsPhone } from '../data/useIsPhone';
import { ViewEditor } from '../view/ViewEditor';
import { designerApi } from './api';
import { Canvas } from './Canvas';
import { addToTab, createComponent, DEFAULT_SIZE, findComponent, removeComponent, updateComponent, viewIdsOf, newId, type PaletteType } from './components';
import type { PanelView } from './datasets';
import { DESIGNER_CSS } from './designerCss';
import { boxFromGrid, bottomRow, layoutOf, type GridItem } from './gridLayout';
import { InteractionsDialog } from './InteractionsDialog';
import { designOf, draftBody } from './loadDesign';
import { Palette, type PaletteChoice } from './Palette';
import { PrivilegesDialog } from './PrivilegesDialog';
import { PropertyPanel } from './PropertyPanel';
import { ProxyDialog } from './ProxyDialog';
import { ProxySetting } from './ProxySetting';
import { PublishDialog } from './PublishDialog';
import { ShareDialog } from './ShareDialog';
import { TopBar } from './TopBar';
import type { Draft } from './types';
import { useDesign } from './useDesign';
import { useDesignerKeys, useLeaveGuard } from './useDesignerKeys';
import { useProxyUser } from './useProxyUser';
import { VersionsDrawer } from './VersionsDrawer';
import { useDsT } from './i18n';

type Dialog = 'publish' | 'versions' | 'share' | 'privileges' | 'proxy' | 'preview' | null;
/** Where a chart made in the view editor goes: a canvas cell, or a tab pane. */
type Placement = { cell?: GridItem; pane?: { tabsId: string; tabName: string } };

export const panelIdOf = (pathname: string) => decodeURIComponent(pathname.split('/').filter(Boolean)[2] || '');
const viewerPath = (panelId: string) => `/dynamic-report?panelId=${encodeURIComponent(panelId)}`;

function Designer({ panelId, draft, initialViews, onReload }: { panelId: string; draft: Draft; initialViews: PanelView[]; onReload: () => void }) {
  const { t } = useDsT();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const design = useDesign(useMemo(() => designOf(draft), [draft]));
  const { state } = design;
  const [meta, setMeta] = useState({ publishedVersion: draft.publishedVersion ?? null, hasUnpublished: !!draft.hasUnpublished, live: draft.live !== false });
  // the tab says which panel is edited, not the list's menu title
  const tabTitle = t('bar.tabTitle', { name: state.name.trim() || draft.name });
  useEffect(() => setTabTitle(pathname, tabTitle), [pathname, tabTitle]);
  const [views, setViews] = useState<PanelView[]>(initialViews);
  const [viewEpoch, setViewEpoch] = useState<Record<string, number>>({});
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [dragging, setDragging] = useState<{ choice: PaletteChoice; size: { w: number; h: number } } | null>(null);
  const [editor, setEditor] = useState<{ view: PanelView | null; placement: Placement } | null>(null);
  const [interactions, setInteractions] = useState<PanelView | null>(null);
  const [activeTabs, setActiveTabs] = useState<Record<string, string>>({});
  const [dialog, setDialog] = useState<Dialog>(null);
  const [saving, setSaving] = useState(false);
  const [publishing, setPublishing] = useState(false);
  const proxy = useProxyUser(panelId);
  useLeaveGuard(design.dirty);

  const selected = selectedId ? findComponent(state.components, selectedId) || null : null;
  const placedViewIds = useMemo(() => new Set(viewIdsOf(state.components)), [state.components]);
  const placedViews = useMemo(() => views.filter((v) => placedViewIds.has(v.id)), [views, placedViewIds]);
  const texts = useCallback(
    (type: PaletteType) => ({ title: t(`defaults.${type}`), text: t('defaults.text'), tabTitle: t('tabs.defaultTitle', { n: 1 }) }),
    [t],
  );

  const place = useCallback((type: PaletteType, cell: GridItem | null, viewId?: string) => {
    const c = createComponent(type, texts(type), viewId);
    design.setComponents((list) => {
      const size = DEFAULT_SIZE[type];
      const at = cell || { i: c.id, x: 0, y: bottomRow(layoutOf(list, state.style.width)), ...size };
      return [...list, { ...c, style: { ...c.style, ...boxFromGrid(at, state.style.width) } }];
    });
    setSelectedId(c.id);
  }, [design, state.style.width, texts]);

  const add = (choice: PaletteChoice, cell: GridItem | null = null) => {
    if (choice.type === 'view' && !choice.viewId) return setEditor({ view: null, placement: { cell: cell || undefined } });
    place(choice.type, cell, choice.viewId);
  };
  const addToPane = (tabsId: string, tabName: string, type: PaletteType, viewId?: string) => {
    if (type === 'view' && !viewId) return setEditor({ view: null, placement: { pane: { tabsId, tabName } } });
    const c = createComponent(type, texts(type), viewId);
    design.setComponents((list) => addToTab(list, tabsId, tabName, c, DEFAULT_SIZE[type]));
    setActiveTabs((m) => ({ ...m, [tabsId]: tabName }));
    setSelectedId(c.id);
  };
  const onViewSaved = (view: ChartView) => {
    const saved = view as PanelView;
    setViews((list) => (list.some((v) => v.id === saved.id) ? list.map((v) => (v.id === saved.id ? saved : v)) : [...list, saved]));
    setViewEpoch((m) => ({ ...m, [saved.id]: (m[saved.id] || 0) + 1 }));
    const placement = editor?.placement;
    setEditor(null);
    if (!placement) return;
    if (placement.pane) addToPane(placement.pane.tabsId, placement.pane.tabName, 'view', saved.id);
    else place('view', placement.cell || null, saved.id);
  };
  const removeSelected = (id = selectedId) => {
    if (!id) return;
    design.setComponents((list) => removeComponent(list, id));
    setSelectedId(null);
  };
  const duplicate = (id: string) => {
    const c = state.components.find((x) => x.id === id);
    if (!c) return;
    const copy = { ...structuredClone(c), id: newId() };
    design.setComponents((list) => [...list, { ...copy, style: { ...copy.style, top: bottomRow(layoutOf(list, state.style.width)) * 10 } }]);
    setSelectedId(copy.id);
  };
  const deleteView = async (viewId: string) => {
    try {
      await designerApi.deleteView(viewId);
      setViews((list) => list.filter((v) => v.id !== viewId));
    } catch (e) {
      message.error((e as Error).message);
    }
  };

  const save = async (): Promise<boolean> => {
    if (!state.name.trim()) {
      message.warning(t('bar.nameRequired'));
      return false;
    }
    setSaving(true);
    const snapshot = state;
    try {
      const answer = await designerApi.saveDraft(draftBody(panelId, snapshot));
      design.markSaved(snapshot);
      setMeta({ publishedVersion: answer?.publishedVersion ?? meta.publishedVersion, hasUnpublished: answer?.hasUnpublished ?? true, live: answer?.live ?? meta.live });
      message.success(t('bar.saved'));
      return true;
    } catch (e) {
      message.error((e as Error).message);
      return false;
    } finally {
      setSaving(false);
    }
  };
  const publish = async (note: string) => {
    setPublishing(true);
    try {
      if (design.dirty && !(await save())) return;
      const answer = await designerApi.publish(panelId, note);
      setMeta({ publishedVersion: answer.version, hasUnpublished: false, live: true });
      setDialog(null);
      message.success(t('publish.done', { version: answer.version }));
    } catch (e) {
      message.error((e as Error).message);
    } finally {
      setPublishing(false);
    }
  };
  const back = () => {
    if (!design.dirty) return navigate(viewerPath(panelId));
    modal.confirm({ title: t('leave.title'), content: t('leave.content'), okText: t('leave.ok'), cancelText: t('common.cancel'), okButtonProps: { danger: true }, onOk: () => navigate(viewerPath(panelId)) });
  };

  useDesignerKeys({ undo: design.undo, redo: design.redo, save: () => design.dirty && void save(), remove: () => removeSelected() });

  return (
    <div data-testid="designer-page" data-panel-id={panelId} data-dirty={design.dirty ? '1' : '0'} style={{ display: 'flex', flexDirection: 'column', minHeight: '100%', background: '#f0f2f5' }}>
      <style>{DESIGNER_CSS}</style>
      <TopBar
        name={state.name}
        onName={(name) => design.change((s) => ({ ...s, name }), 'name')}
        dirty={design.dirty}
        saving={saving}
        canUndo={design.canUndo}
        canRedo={design.canRedo}
        publishedVersion={meta.publishedVersion}
        hasUnpublished={meta.hasUnpublished || design.dirty}
        live={meta.live}
        onBack={back}
        onUndo={design.undo}
        onRedo={design.redo}
        onSave={() => void save()}
        onPreview={() => setDialog('preview')}
        onPublish={() => setDialog('publish')}
        onVersions={() => setDialog('versions')}
        onShare={() => setDialog('share')}
        onPrivileges={() => setDialog('privileges')}
      />
      <div style={{ display: 'flex', gap: 8, padding: 8, flex: 1, minHeight: 0, alignItems: 'flex-start' }}>
        <aside style={{ width: 180, flex: 'none', background: '#fff', borderRadius: 8, padding: 8, position: 'sticky', top: 8, maxHeight: 'calc(100vh - 140px)', overflow: 'auto' }}>
          <Palette
            views={views}
            placedViewIds={placedViewIds}
            onAdd={(choice) => add(choice)}
            onDragStart={(choice, size) => setDragging({ choice, size })}
            onDragEnd={() => setDragging(null)}
            onDeleteView={(id) => void deleteView(id)}
          />
        </aside>
        <main style={{ flex: 1, minWidth: 0, background: '#fff', borderRadius: 8, padding: 8 }}>
          <Canvas
            panelId={panelId}
            name={state.name}
            components={state.components}
            style={state.style}
            viewEpoch={viewEpoch}
            dragging={dragging?.size || null}
            activeTabs={activeTabs}
            onActiveTab={(tabsId, name) => setActiveTabs((m) => ({ ...m, [tabsId]: name }))}
            actions={{ selectedId, onSelect: setSelectedId, onRemove: (id) => removeSelected(id), onDuplicate: duplicate }}
            onLayout={(components) => design.setComponents(() => components)}
            onDropNew={(cell) => {
              if (dragging) add(dragging.choice, { ...cell, ...dragging.size, w: Math.min(dragging.size.w, 24 - cell.x) });
              setDragging(null);
            }}
            onTabPaneChange={(tabsId, tabName, content) =>
              design.setComponents((list) => updateComponent(list, tabsId, (c) => ({ ...c, options: { ...c.options, tabList: (c.options?.tabList || []).map((tab) => (tab.name === tabName ? { ...tab, content } : tab)) } })))
            }
            onDeselect={() => setSelectedId(null)}
          />
        </main>
        <aside data-testid="designer-properties" style={{ width: 280, flex: 'none', background: '#fff', borderRadius: 8, padding: 12, position: 'sticky', top: 8, maxHeight: 'calc(100vh - 140px)', overflow: 'auto' }}>
          <PropertyPanel
            selected={selected}
            components={state.components}
            style={state.style}
            views={placedViews}
            onComponent={(update, key) => selectedId && design.setComponents((list) => updateComponent(list, selectedId, update), key)}
            onStyle={design.setStyle}
            onAddToPane={addToPane}
            onEditView={(view) => setEditor({ view, placement: {} })}
            onInteractions={setInteractions}
            panelSettings={<ProxySetting proxy={proxy} onChange={() => setDialog('proxy')} />}
          />
        </aside>
      </div>
      <ViewEditor panelId={panelId} view={editor?.view || null} open={!!editor} onSaved={onViewSaved} onClose={() => setEditor(null)} />
      {interactions && <InteractionsDialog panelId={panelId} view={views.find((v) => v.id === interactions.id) || interactions} views={placedViews} onClose={() => setInteractions(null)} />}
      <PublishDialog open={dialog === 'publish'} busy={publishing} unsaved={design.dirty} onPublish={(note) => void publish(note)} onClose={() => setDialog(null)} />
      <VersionsDrawer panelId={panelId} open={dialog === 'versions'} current={meta.publishedVersion} onClose={() => setDialog(null)} onRolledBack={() => { design.reset(design.state); onReload(); }} />
      <ShareDialog panelId={panelId} open={dialog === 'share'} onClose={() => setDialog(null)} />
      <PrivilegesDialog panelId={panelId} open={dialog === 'privileges'} onClose={() => setDialog(null)} />
      <ProxyDialog panelId={panelId} open={dialog === 'proxy'} proxy={proxy} onClose={() => setDialog(null)} />
      <Modal open={dialog === 'preview'} title={t('preview.title', { name: state.name })} onCancel={() => setDialog(null)} footer={null} width="96vw" style={{ top: 16 }} destroyOnHidden>
        <div data-testid="designer-preview">
          <PanelViewer panel={{ id: panelId, name: state.name, privileges: draft.privileges, panelData: state.components, panelStyle: state.style }} signedIn />
        </div>
      </Modal>
    </div>
  );
}

export default function DesignerPage() {
  const { t } = useDsT();
  const location = useLocation();
  const navigate = useNavigate();
  const phone = useIsPhone();
  const panelId = panelIdOf(location.pathname);
  const [loaded, setLoaded] = useState<{ draft: Draft; views: PanelView[]; epoch: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [epoch, setEpoch] = useState(0);
  useEffect(() => {
    let alive = true;
    setError(null);
    Promise.all([designerApi.draft(panelId), designerApi.views(panelId)])
      .then(([draft, views]) => alive && setLoaded({ draft, views: (views || []) as PanelView[], epoch }))
      .catch((e: Error) => alive && setError(e.message));
    return () => {
      alive = false;
    };
  }, [panelId, epoch]);

  if (phone) {
    return (
      <Result
        data-testid="designer-narrow"
        status="info"
        title={t('narrow.title')}
        subTitle={t('narrow.content')}
        extra={<Button type="primary" onClick={() => navigate(viewerPath(panelId))}>{t('narrow.view')}</Button>}
      />
    );
  }
  if (error) return <Result status="warning" title={t('load.failed')} subTitle={error} extra={<Button onClick={() => navigate('/dynamic-report')}>{t('bar.back')}</Button>} />;
  if (!loaded) return <div style={{ padding: 80, textAlign: 'center' }}><Spin /></div>;
  return <Designer key={`${panelId}:${loaded.epoch}`} panelId={panelId} draft={loaded.draft} initialViews={loaded.views} onReload={() => setEpoch((n) => n + 1)} />;
}
