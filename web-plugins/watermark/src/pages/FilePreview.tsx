import { useEffect, useState } from 'react';
import { Alert, Button, Card, Empty, Input, InputNumber, Space, Spin } from 'antd';
import { useLocation, useSearchParams } from 'react-router';
import { saveBlob, setTabTitle, useT } from '@atrium/sdk';
import { currentWatermark, previewFile } from '../api';

interface Shown {
  key: string;
  blob: Blob;
  src: string;
  stamped: boolean;
}

/** The file's name to save under: its stored name for an address, else `preview`, with the answer's type. */
function fileName(url: string, fileId: string, type: string): string {
  const base = url ? (url.split('?')[0].split('/').pop() || 'preview').replace(/\.[^.]+$/, '') : `file-${fileId}`;
  return `${base}.${type === 'application/pdf' ? 'pdf' : type === 'image/jpeg' ? 'jpg' : 'png'}`;
}

/**
 * A file previewed with the watermark stamped into it on the server (`/watermark-preview?fileId=&funcCode=`,
 * or `?url=` with an attachment's address): an image in an <img>, a PDF (office documents become one) in a
 * frame. A copy saved from here keeps the watermark.
 */
export function FilePreview() {
  const t = useT('watermark');
  const [params, setParams] = useSearchParams();
  const fileId = params.get('fileId') || '';
  const url = params.get('url') || '';
  const funcCode = params.get('funcCode') || '';
  const key = `${fileId}|${url}|${funcCode}`;
  const [idInput, setIdInput] = useState<number | null>(fileId ? Number(fileId) : null);
  const [codeInput, setCodeInput] = useState(funcCode);
  const [shown, setShown] = useState<Shown | null>(null);
  const [failed, setFailed] = useState('');
  const { pathname } = useLocation();
  const pageTitle = t('web.filePreview.title');

  useEffect(() => setTabTitle(pathname, pageTitle), [pathname, pageTitle]);

  useEffect(() => {
    if (!fileId && !url) return undefined;
    let alive = true;
    let made = '';
    setFailed('');
    const file = fileId ? { fileId: Number(fileId), funcCode } : { url, funcCode };
    Promise.all([previewFile(file), currentWatermark(funcCode).catch(() => null)]).then(([blob, mark]) => {
      if (!alive) return;
      made = URL.createObjectURL(blob);
      setShown({ key, blob, src: made, stamped: !!mark });
    }, (err: Error) => {
      if (alive) setFailed(err.message);
    });
    return () => {
      alive = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [fileId, url, funcCode, key]);

  const show = () => {
    const next = new URLSearchParams();
    if (idInput) next.set('fileId', String(idInput));
    if (codeInput.trim()) next.set('funcCode', codeInput.trim());
    setParams(next);
  };

  const current = shown && shown.key === key ? shown : null;
  const title = t('web.filePreview.frame', { name: url || fileId });
  let body;
  if (!fileId && !url) body = <Empty description={t('web.filePreview.empty')} />;
  else if (failed) body = <Alert type="error" showIcon title={failed} />;
  else if (!current) body = <div className="at-center" style={{ padding: 48 }}><Spin tip={t('web.filePreview.loading')}><div style={{ width: 160, height: 60 }} /></Spin></div>;
  else {
    body = (
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Alert type={current.stamped ? 'info' : 'warning'} showIcon
          title={current.stamped ? t('web.filePreview.stamped') : t('web.filePreview.plain')} />
        {current.blob.type === 'application/pdf'
          ? <iframe data-testid="watermark-file-preview" title={title} src={current.src} style={{ width: '100%', height: '75vh', border: 0 }} />
          : <img data-testid="watermark-file-preview" alt={title} src={current.src} style={{ maxWidth: '100%', display: 'block', border: '1px solid rgba(127,140,170,.3)' }} />}
      </Space>
    );
  }

  return (
    <div className="at-page" data-testid="watermark-file-preview-page">
      <Card title={pageTitle}
        extra={current && <Button onClick={() => saveBlob(current.blob, fileName(url, fileId, current.blob.type))}>{t('web.filePreview.save')}</Button>}>
        <Space wrap style={{ marginBottom: 16 }}>
          <InputNumber min={1} precision={0} value={idInput} onChange={(v) => setIdInput(v)} placeholder={t('web.filePreview.fileId')}
            aria-label={t('web.filePreview.fileId')} style={{ width: 160 }} />
          <Input value={codeInput} onChange={(e) => setCodeInput(e.target.value)} placeholder={t('web.functionCode')}
            aria-label={t('web.functionCode')} maxLength={64} style={{ width: 200 }} />
          <Button type="primary" onClick={show} disabled={!idInput}>{t('web.filePreview.show')}</Button>
        </Space>
        {body}
      </Card>
    </div>
  );
}
