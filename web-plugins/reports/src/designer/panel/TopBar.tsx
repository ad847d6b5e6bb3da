/** The designer's top bar: name, undo and redo, save, preview, publish, versions, share, privileges, back. */
import { Button, Input, Space, Tag, Tooltip } from 'antd';
import { useDsT } from './i18n';

export interface TopBarProps {
  name: string;
  onName: (name: string) => void;
  dirty: boolean;
  saving: boolean;
  canUndo: boolean;
  canRedo: boolean;
  publishedVersion: number | null;
  hasUnpublished: boolean;
  /** Viewers see the panel (published, or written live elsewhere); false: never published. */
  live: boolean;
  onBack: () => void;
  onUndo: () => void;
  onRedo: () => void;
  onSave: () => void;
  onPreview: () => void;
  onPublish: () => void;
  onVersions: () => void;
  onShare: () => void;
  onPrivileges: () => void;
}

export function TopBar(p: TopBarProps) {
  const { t } = useDsT();
  const status = p.dirty
    ? <Tag color="orange" data-testid="designer-status" data-status="unsaved">{t('status.unsaved')}</Tag>
    : p.hasUnpublished
      ? <Tag color="blue" data-testid="designer-status" data-status="unpublished">{t('status.unpublished')}</Tag>
      : !p.live
        ? <Tooltip title={t('home.neverPublishedHint')}><Tag data-testid="designer-status" data-status="draft">{t('status.neverPublished')}</Tag></Tooltip>
        : <Tag color="green" data-testid="designer-status" data-status="published">{p.publishedVersion ? t('status.published', { version: p.publishedVersion }) : t('status.live')}</Tag>;
  return (
    <div style={{ display: 'flex', alignItems: 'center', gap: 8, padding: '8px 12px', background: '#fff', borderBottom: '1px solid #e5e8ef', flexWrap: 'wrap' }}>
      <Button data-testid="designer-back" onClick={p.onBack}>{t('bar.back')}</Button>
      <Input
        data-testid="designer-name"
        aria-label={t('bar.name')}
        value={p.name}
        maxLength={100}
        status={p.name.trim() ? undefined : 'error'}
        onChange={(e) => p.onName(e.target.value)}
        style={{ flex: '1 1 160px', maxWidth: 240, fontWeight: 600 }}
      />
      {status}
      <div style={{ flex: 1 }} />
      <Space.Compact>
        <Tooltip title={`${t('bar.undo')} (Ctrl+Z)`}><Button data-testid="designer-undo" disabled={!p.canUndo} onClick={p.onUndo}>{t('bar.undo')}</Button></Tooltip>
        <Tooltip title={`${t('bar.redo')} (Ctrl+Shift+Z)`}><Button data-testid="designer-redo" disabled={!p.canRedo} onClick={p.onRedo}>{t('bar.redo')}</Button></Tooltip>
      </Space.Compact>
      <Button data-testid="designer-save" loading={p.saving} disabled={!p.dirty || !p.name.trim()} onClick={p.onSave}>{t('bar.save')}</Button>
      <Button data-testid="designer-preview" onClick={p.onPreview}>{t('bar.preview')}</Button>
      <Button data-testid="designer-versions" onClick={p.onVersions}>{t('bar.versions')}</Button>
      <Button data-testid="designer-share" onClick={p.onShare}>{t('bar.share')}</Button>
      <Button data-testid="designer-privileges" onClick={p.onPrivileges}>{t('bar.privileges')}</Button>
      <Button data-testid="designer-publish" type="primary" disabled={!p.name.trim()} onClick={p.onPublish}>{t('bar.publish')}</Button>
    </div>
  );
}
