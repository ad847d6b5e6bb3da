/** The left palette: every component type (spec 2.3) and the panel's existing views. A click adds one
 * below the rest; dragging drops it where it is let go. */
import { Button, Empty, Popconfirm, Typography } from 'antd';
import type { DragEvent, ReactNode } from 'react';
import type { ChartView } from '../../model/types';
import { DEFAULT_SIZE, PALETTE_GROUPS, type PaletteType } from './components';
import { Icon } from './icons';
import { useDsT } from './i18n';

export type PaletteChoice = { type: PaletteType; viewId?: string };

export interface PaletteProps {
  views: ChartView[];
  placedViewIds: Set<string>;
  onAdd: (choice: PaletteChoice) => void;
  onDragStart: (choice: PaletteChoice, size: { w: number; h: number }) => void;
  onDragEnd: () => void;
  /** Deletes a chart no component shows. */
  onDeleteView: (viewId: string) => void;
}

function Item({ choice, label, testId, props, extra }: { choice: PaletteChoice; label: string; testId: string; props: PaletteProps; extra?: ReactNode }) {
  const size = DEFAULT_SIZE[choice.type];
  const onDragStart = (e: DragEvent<HTMLDivElement>) => {
    // Firefox starts a drag only with data set
    e.dataTransfer.setData('text/plain', choice.type);
    props.onDragStart(choice, size);
  };
  return (
    <div
      className="dsg-palette-item droppable-element"
      data-testid={testId}
      role="button"
      tabIndex={0}
      draggable
      unselectable="on"
      onDragStart={onDragStart}
      onDragEnd={props.onDragEnd}
      onClick={() => props.onAdd(choice)}
      onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && props.onAdd(choice)}
    >
      <span style={{ width: 18, display: 'flex', justifyContent: 'center', color: '#204be3' }}><Icon name={choice.type} /></span>
      <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', flex: 1 }}>{label}</span>
      {extra}
    </div>
  );
}

export function Palette(props: PaletteProps) {
  const { t } = useDsT();
  const groups = Object.entries(PALETTE_GROUPS) as [keyof typeof PALETTE_GROUPS, readonly PaletteType[]][];
  return (
    <div data-testid="designer-palette" style={{ display: 'flex', flexDirection: 'column', gap: 10 }}>
      {groups.map(([group, types]) => (
        <section key={group}>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t(`palette.group.${group}`)}</Typography.Text>
          {types.map((type) => <Item key={type} choice={{ type }} label={t(`palette.${type}`)} testId={`palette-${type}`} props={props} />)}
        </section>
      ))}
      <section data-testid="palette-views">
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t('palette.group.views')}</Typography.Text>
        {!props.views.length ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('palette.noViews')} style={{ margin: '4px 0' }} />
        ) : (
          props.views.map((v) => (
            <Item
              key={v.id}
              choice={{ type: 'view', viewId: v.id }}
              label={`${v.title || v.name}${props.placedViewIds.has(v.id) ? ` (${t('palette.placed')})` : ''}`}
              testId={`palette-existing-${v.id}`}
              props={props}
              extra={props.placedViewIds.has(v.id) ? null : (
                <span onClick={(e) => e.stopPropagation()}>
                  <Popconfirm title={t('palette.deleteView')} okText={t('common.delete')} cancelText={t('common.cancel')} onConfirm={() => props.onDeleteView(v.id)}>
                    <Button size="small" type="text" danger aria-label={t('common.delete')} data-testid={`palette-delete-${v.id}`} icon={<Icon name="close" size={12} />} />
                  </Popconfirm>
                </span>
              )}
            />
          ))
        )}
      </section>
    </div>
  );
}
