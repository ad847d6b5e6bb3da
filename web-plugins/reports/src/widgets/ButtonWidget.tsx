/**
 * Search, reset and export buttons (spec 4). Search applies the widgets' values to their views; reset
 * clears them, then applies; export goes into loading, asks which views when there are several, runs one
 * asynchronous task per view (polled once a second) and downloads each file.
 */
import { App, Button, Checkbox, Modal } from 'antd';
import { useState } from 'react';
import type { PanelComponent } from '../model/types';
import { filtersForView } from '../model/filters';
import { api } from '../api';
import { useRT } from '../i18n';
import { usePanelStore } from '../panel/store';
import { exportViews } from '../panel/exportLater';
import { canExportHere, EXPORT_BUTTON, useExportGranted } from '../panel/exportGrant';

export function ButtonWidget({ component, kind }: { component: PanelComponent; kind: 'search' | 'reset' | 'export' }) {
  const { t } = useRT();
  const { message } = App.useApp();
  const store = usePanelStore();
  const attrs = component.options?.attrs || {};
  const [loading, setLoading] = useState(false);
  const [choosing, setChoosing] = useState<{ id: string; title: string }[] | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const exportGranted = useExportGranted();
  const label = typeof component.propValue === 'string' && component.propValue ? component.propValue : t(`button.${kind}`);
  // the widgets a search or reset covers: its own list when customRange is set, else all of them
  const widgetIds = attrs.customRange && Array.isArray(attrs.filterIds) ? attrs.filterIds.filter((id) => store.widget(id)) : undefined;

  const exportIds = (): string[] => {
    const listed = Array.isArray(attrs.filterIds) ? attrs.filterIds.filter((id) => store.env.viewIds.includes(id)) : [];
    return listed.length ? listed : store.env.viewIds;
  };

  const runExport = async (ids: string[]) => {
    setLoading(true);
    try {
      const state = store.getState();
      const user = store.env.access?.user;
      const items = [];
      for (const id of ids) {
        const body = {
          filter: filtersForView(Object.values(state.applied).flat(), id),
          linkageFilters: state.linkage[id]?.filters || [],
          urlFilter: filtersForView(state.track, id),
          drill: (state.drill[id] || []).map((d) => ({ fieldId: d.fieldId, value: d.value })),
          queryFrom: 'panel' as const,
          cache: true,
          ...(user !== undefined && user !== null ? { user } : {}),
        };
        const view = await api.data(id, store.env.panelId, body, store.env.access);
        items.push({ view, body, panelId: store.env.panelId, access: store.env.access });
      }
      await exportViews(items);
      message.success(t('export.done'));
    } catch (e) {
      message.warning((e as Error)?.message || t('export.failed'));
    } finally {
      setLoading(false);
    }
  };

  const onClick = async () => {
    if (kind === 'search') return store.search(widgetIds);
    if (kind === 'reset') return store.reset(widgetIds);
    if (!canExportHere(store.env)) return void message.warning(t('export.needSignIn'));
    const ids = exportIds();
    if (ids.length <= 1) return void runExport(ids);
    setLoading(true);
    const titles = await Promise.all(
      ids.map((id) => api.view(id, store.env.panelId, store.env.access).then((v) => ({ id, title: v.title || v.name })).catch(() => ({ id, title: id }))),
    );
    setChosen(ids);
    setChoosing(titles);
  };

  if (kind === 'export' && !exportGranted) return null;
  return (
    <>
      <Button
        data-testid={`button-${kind}`}
        data-button-code={kind === 'export' ? EXPORT_BUTTON : undefined}
        type={kind === 'search' ? 'primary' : 'default'}
        loading={loading}
        onClick={() => void onClick()}
        style={{ width: '100%', height: '100%' }}
      >
        {label}
      </Button>
      {choosing && (
        <Modal
          open
          title={t('export.chooseViews')}
          onCancel={() => {
            setChoosing(null);
            setLoading(false);
          }}
          okButtonProps={{ disabled: !chosen.length, 'data-testid': 'export-confirm' } as any}
          onOk={() => {
            const ids = chosen;
            setChoosing(null);
            void runExport(ids);
          }}
        >
          <div data-testid="export-choose" style={{ display: 'flex', flexDirection: 'column', gap: 6 }}>
            <Checkbox
              checked={chosen.length === choosing.length}
              indeterminate={chosen.length > 0 && chosen.length < choosing.length}
              onChange={(e) => setChosen(e.target.checked ? choosing.map((c) => c.id) : [])}
            >
              {t('filter.selectAll')}
            </Checkbox>
            <Checkbox.Group value={chosen} onChange={(v) => setChosen(v as string[])} style={{ display: 'flex', flexDirection: 'column', gap: 4 }}>
              {choosing.map((c) => <Checkbox key={c.id} value={c.id}>{c.title}</Checkbox>)}
            </Checkbox.Group>
          </div>
        </Modal>
      )}
    </>
  );
}
