import { useState } from 'react';
import { App, Button, Space, Upload } from 'antd';
import { upload, useT } from '@atrium/sdk';
import { useCoverSrc } from '../coverSrc';

/** Spec reports.md, image upload: at most 2 MB, jpg, jpeg or png (the files plugin checks again). */
export const COVER_MAX_BYTES = 2 * 1024 * 1024;
const COVER_TYPES = ['image/jpeg', 'image/png'];
const COVER_NAME = /\.(jpe?g|png)$/i;
const UPLOAD_PATH = 'file/iot-base-attachment/single/file-upload';

interface Props {
  value?: string;
  onChange?: (url: string) => void;
}

/** The article's cover: an image uploaded through the files plugin's upload call, kept as its address. */
export function CoverUpload({ value = '', onChange }: Props) {
  const t = useT('portal');
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const src = useCoverSrc(value);

  const accept = (file: File): boolean => {
    if (!COVER_TYPES.includes(file.type) || !COVER_NAME.test(file.name)) {
      message.error(t('web.coverBadType'));
      return false;
    }
    if (file.size > COVER_MAX_BYTES) {
      message.error(t('web.coverTooBig'));
      return false;
    }
    return true;
  };

  const send = async (file: File) => {
    setBusy(true);
    try {
      const stored = await upload<{ filePath: string }>(UPLOAD_PATH, file, {}, { params: { funcCode: 'image' } });
      onChange?.(stored.filePath);
    } catch {
      /* the request client has shown the server's message */
    } finally {
      setBusy(false);
    }
  };

  return (
    <Space align="start" data-testid="article-cover">
      {src && <img src={src} alt={t('web.cover')} data-testid="article-cover-image" style={{ width: 160, maxHeight: 100, objectFit: 'cover', borderRadius: 6 }} />}
      <Space direction="vertical" size={4}>
        <Upload accept=".jpg,.jpeg,.png" showUploadList={false} beforeUpload={(f) => { if (accept(f)) void send(f); return false; }}>
          <Button loading={busy} data-testid="article-cover-upload">{value ? t('web.coverReplace') : t('web.coverUpload')}</Button>
        </Upload>
        {value && <Button size="small" type="link" danger onClick={() => onChange?.('')} data-testid="article-cover-remove">{t('web.coverRemove')}</Button>}
        <span style={{ fontSize: 12, opacity: 0.65 }}>{t('web.coverRules')}</span>
      </Space>
    </Space>
  );
}
