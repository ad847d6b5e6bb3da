/** The menu form's icon: the files plugin's icon picker when that plugin is enabled for the tenant, else a
 * list of icon names. */
import { useState } from 'react';
import { Button, Input, Select, Space } from 'antd';
import { moduleComponent, useImageSrc, usePluginModule, useT } from '@atrium/sdk';

/** The part of the files plugin's `./IconPicker` props this form relies on. */
interface IconPickerProps {
  open: boolean;
  value?: string;
  onOk?: (choice: { value: string }) => void;
  onCancel?: () => void;
}

const ICON_NAMES = ['AppstoreOutlined', 'HomeOutlined', 'SettingOutlined', 'UserOutlined', 'TeamOutlined', 'MenuOutlined', 'FileOutlined', 'FormOutlined',
  'BarChartOutlined', 'DashboardOutlined', 'MailOutlined', 'BellOutlined', 'CloudOutlined', 'DatabaseOutlined', 'ApiOutlined', 'StarOutlined', 'ToolOutlined'];

interface FieldProps {
  value?: string;
  onChange?: (value: string) => void;
}

function IconNameSelect({ value, onChange }: FieldProps) {
  return (
    <Select allowClear showSearch data-testid="menu-icon-select" value={value || undefined} onChange={(v) => onChange?.(v ?? '')}
      options={ICON_NAMES.map((i) => ({ value: i, label: i }))} />
  );
}

/** A custom icon is stored as its file's address: shown as the sidebar will show it. */
function IconPreview({ value }: { value?: string }) {
  const src = useImageSrc(value && /^(https?:|\/|data:)/.test(value) ? value : undefined);
  return src ? <img src={src} alt="" data-testid="menu-icon-preview" style={{ width: 20, height: 20, objectFit: 'contain', alignSelf: 'center' }} /> : null;
}

export function MenuIconField({ value, onChange }: FieldProps) {
  const t = useT('admin');
  const picker = usePluginModule('files', './IconPicker');
  const [open, setOpen] = useState(false);
  const IconPicker = picker.status === 'ready' ? moduleComponent<IconPickerProps>(picker.module) : undefined;
  if (picker.status === 'failed' || (picker.status === 'ready' && !IconPicker)) return <IconNameSelect value={value} onChange={onChange} />;

  return (
    <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
      <IconPreview value={value} />
      <Space.Compact style={{ flex: 1 }}>
        <Input allowClear maxLength={255} data-testid="menu-icon" value={value} onChange={(e) => onChange?.(e.target.value)} />
        <Button loading={!IconPicker} disabled={!IconPicker} onClick={() => setOpen(true)} data-testid="menu-icon-pick">{t('web.chooseIcon')}</Button>
      </Space.Compact>
      {IconPicker && (
        <IconPicker open={open} value={value} onCancel={() => setOpen(false)}
          onOk={(choice) => {
            onChange?.(choice.value);
            setOpen(false);
          }} />
      )}
    </div>
  );
}
