/**
 * The icon picker (spec 2.4): built-in and custom icons in an 840 px dialog; custom icons can be uploaded,
 * edited (640 px dialog) and deleted by those the permission rule allows (spec 6; the server decides and
 * says so in `canEdit`). Exposed as `./IconPicker` for other plugins:
 *
 *   const { IconPicker } = await loadRemote('atrium_files/IconPicker');
 *   <IconPicker open value={icon} onOk={(choice) => ...} onCancel={...} />
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { App as AntApp, Button, Empty, Form, Input, Modal, Popconfirm, Spin, Tabs, Tooltip, Upload } from 'antd';
import type { UploadFile } from 'antd';
import { appUrl, useT } from '@atrium/sdk';
import { allIcons, deleteIcon, saveIcon, uploadFile, type CustomIcon } from '../api';
import { checkIcon, ICON_MAX_BYTES, ICON_MAX_COUNT, sizeText } from '../limits';
import { BUILTIN_ICONS, type BuiltinIcon } from './builtinIcons';

export interface IconChoice {
  type: 'builtin' | 'custom';
  /** font_class of a built-in icon, or the stored address (iconUrl) of a custom one */
  value: string;
  name: string;
  /** an address to show a custom icon right away (short-lived) */
  src?: string;
  builtin?: BuiltinIcon;
  custom?: CustomIcon;
}

export function BuiltinGlyph({ icon, size = 24 }: { icon: BuiltinIcon; size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.6}
      strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d={icon.path} />
    </svg>
  );
}

const tile: React.CSSProperties = {
  width: 88, height: 80, display: 'inline-flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center',
  gap: 6, margin: 4, borderRadius: 8, cursor: 'pointer', border: '1px solid transparent', position: 'relative',
};

interface EditorProps {
  icon: CustomIcon | null;
  open: boolean;
  maxSize: number;
  maxCount: number;
  onClose: (changed: boolean) => void;
}

/** The 640 px dialog that uploads a new icon or edits one. */
function IconEditor({ icon, open, maxSize, maxCount, onClose }: EditorProps) {
  const t = useT('files');
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<{ iconName: string }>();
  const [files, setFiles] = useState<UploadFile[]>([]);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (open) {
      form.setFieldsValue({ iconName: icon?.iconName || '' });
      setFiles([]);
    }
  }, [open, icon, form]);

  const submit = async () => {
    let iconName: string;
    try {
      ({ iconName } = await form.validateFields());
    } catch {
      return; // the form shows what is missing
    }
    const chosen = files.map((f) => f.originFileObj).filter(Boolean) as File[];
    if (!icon && chosen.length === 0) {
      message.warning(t('web.icon.fileRequired'));
      return;
    }
    setSaving(true);
    try {
      if (chosen.length === 0 && icon) {
        await saveIcon({ ciId: icon.ciId, iconName, iconUrl: icon.iconUrl, iconFormat: icon.iconFormat, fileId: icon.fileId });
      }
      for (const [i, file] of chosen.entries()) {
        const up = await uploadFile(file, 'icon');
        const name = chosen.length > 1 ? `${iconName} ${i + 1}` : iconName;
        await saveIcon({ ciId: i === 0 ? icon?.ciId : undefined, iconName: name, iconUrl: up.filePath, iconFormat: up.contentType, fileId: up.fileId });
      }
      message.success(t('web.saved'));
      onClose(true);
    } catch {
      /* the request client showed the server's message */
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal open={open} width={640} title={icon ? t('web.icon.edit') : t('web.icon.upload')} onCancel={() => onClose(false)}
      onOk={submit} confirmLoading={saving} okText={t('web.save')} cancelText={t('web.cancel')} destroyOnHidden
      okButtonProps={{ 'data-testid': 'icon-save' } as any}>
      <Form form={form} layout="vertical">
        <Form.Item name="iconName" label={t('web.icon.name')} rules={[{ required: true, whitespace: true, message: t('web.icon.nameRequired') }]}>
          <Input maxLength={64} data-testid="icon-name" />
        </Form.Item>
        <Form.Item label={t('web.icon.file')} required={!icon} extra={t('web.icon.hint', { count: icon ? 1 : maxCount, limit: sizeText(maxSize) })}>
          <Upload listType="picture" multiple={!icon} maxCount={icon ? 1 : maxCount} fileList={files} accept="image/*,.svg"
            beforeUpload={(file) => {
              const problem = checkIcon(file, maxSize);
              if (problem) {
                message.warning(problem);
                return Upload.LIST_IGNORE;
              }
              return false;
            }}
            onChange={({ fileList }) => setFiles(fileList)}>
            <Button data-testid="icon-file">{t('web.icon.choose')}</Button>
          </Upload>
        </Form.Item>
      </Form>
    </Modal>
  );
}

export interface IconLibraryProps {
  value?: string;
  onSelect?: (choice: IconChoice) => void;
  maxSize?: number;
  maxCount?: number;
}

/** The picker's content: built-in icons and custom icons with upload, edit, delete. */
export function IconLibrary({ value, onSelect, maxSize = ICON_MAX_BYTES, maxCount = ICON_MAX_COUNT }: IconLibraryProps) {
  const t = useT('files');
  const { message } = AntApp.useApp();
  const [custom, setCustom] = useState<CustomIcon[]>([]);
  const [loading, setLoading] = useState(false);
  const [editing, setEditing] = useState<{ icon: CustomIcon | null } | null>(null);
  const [keyword, setKeyword] = useState('');

  const load = useCallback(async () => {
    setLoading(true);
    try {
      setCustom(await allIcons());
    } catch {
      setCustom([]);
    } finally {
      setLoading(false);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const builtins = useMemo(() => BUILTIN_ICONS.filter((i) => !keyword || i.name.toLowerCase().includes(keyword.toLowerCase())), [keyword]);
  const customs = useMemo(() => custom.filter((i) => !keyword || i.iconName.toLowerCase().includes(keyword.toLowerCase())), [custom, keyword]);
  const selected = (v: string) => (v === value ? { borderColor: '#204BE3', background: 'rgba(32,75,227,0.06)' } : {});

  const remove = async (icon: CustomIcon) => {
    try {
      await deleteIcon(icon.ciId);
      message.success(t('web.deleted'));
      void load();
    } catch {
      /* shown by the request client */
    }
  };

  return (
    <div data-testid="icon-library">
      <Input.Search allowClear placeholder={t('web.icon.search')} onSearch={setKeyword} onChange={(e) => !e.target.value && setKeyword('')} style={{ maxWidth: 280, marginBottom: 8 }} />
      <Tabs items={[
        {
          key: 'builtin', label: t('web.icon.builtin'),
          children: (
            <div style={{ maxHeight: 360, overflow: 'auto' }}>
              {builtins.map((icon) => (
                <Tooltip key={icon.icon_id} title={icon.name}>
                  <div role="button" tabIndex={0} style={{ ...tile, ...selected(icon.font_class) }} data-testid={`builtin-${icon.font_class}`}
                    onClick={() => onSelect?.({ type: 'builtin', value: icon.font_class, name: icon.name, builtin: icon })}>
                    <BuiltinGlyph icon={icon} />
                    <span style={{ fontSize: 12 }}>{icon.name}</span>
                  </div>
                </Tooltip>
              ))}
            </div>
          ),
        },
        {
          key: 'custom', label: t('web.icon.custom'),
          children: (
            <Spin spinning={loading}>
              <div style={{ marginBottom: 8 }}>
                <Button type="primary" onClick={() => setEditing({ icon: null })} data-testid="icon-upload">{t('web.icon.upload')}</Button>
              </div>
              {customs.length === 0 ? <Empty description={t('web.icon.none')} /> : (
                <div style={{ maxHeight: 360, overflow: 'auto' }}>
                  {customs.map((icon) => (
                    <div key={icon.ciId} style={{ ...tile, ...selected(icon.iconUrl), width: 112, height: 104 }} data-testid={`custom-${icon.ciId}`}>
                      <div role="button" tabIndex={0} style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 6 }}
                        onClick={() => onSelect?.({ type: 'custom', value: icon.iconUrl, name: icon.iconName, src: icon.iconSrc, custom: icon })}>
                        <img src={appUrl(icon.iconSrc)} alt={icon.iconName} width={28} height={28} style={{ objectFit: 'contain' }} />
                        <span style={{ fontSize: 12, maxWidth: 80, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{icon.iconName}</span>
                      </div>
                      {icon.canEdit && (
                        <div style={{ display: 'flex', gap: 4 }}>
                          <Button size="small" type="link" onClick={() => setEditing({ icon })} data-testid={`icon-edit-${icon.ciId}`}>{t('web.edit')}</Button>
                          <Popconfirm title={t('web.icon.confirmDelete')} okText={t('web.ok')} cancelText={t('web.cancel')} onConfirm={() => remove(icon)}>
                            <Button size="small" type="link" danger data-testid={`icon-delete-${icon.ciId}`}>{t('web.delete')}</Button>
                          </Popconfirm>
                        </div>
                      )}
                    </div>
                  ))}
                </div>
              )}
            </Spin>
          ),
        },
      ]} />
      <IconEditor open={!!editing} icon={editing?.icon || null} maxSize={maxSize} maxCount={maxCount}
        onClose={(changed) => {
          setEditing(null);
          if (changed) void load();
        }} />
    </div>
  );
}

export interface IconPickerProps extends IconLibraryProps {
  open: boolean;
  title?: string;
  onOk?: (choice: IconChoice) => void;
  onCancel?: () => void;
}

/** The 840 px icon picker dialog. */
export function IconPicker({ open, title, value, onOk, onCancel, maxSize, maxCount }: IconPickerProps) {
  const t = useT('files');
  const [choice, setChoice] = useState<IconChoice | null>(null);
  useEffect(() => {
    if (open) setChoice(null);
  }, [open]);
  return (
    <Modal open={open} width={840} title={title || t('web.icon.pick')} onCancel={onCancel} destroyOnHidden
      okText={t('web.ok')} cancelText={t('web.cancel')} okButtonProps={{ disabled: !choice, 'data-testid': 'icon-pick-ok' } as any}
      onOk={() => choice && onOk?.(choice)}>
      <IconLibrary value={choice?.value ?? value} onSelect={setChoice} maxSize={maxSize} maxCount={maxCount} />
    </Modal>
  );
}

export default IconPicker;
