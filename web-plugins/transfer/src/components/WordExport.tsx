/** Word export (spec 4 and 7.2): a dialog shows the export running, then success (green) or failure (red,
 * with the reason, or a fallback when the answer has no file). Exposed as `./WordExport`. */
import { useState, type ReactNode } from 'react';
import { Button, Modal, Result, Spin, type ButtonProps } from 'antd';
import { request, RequestError, useT } from '@atrium/sdk';
import { downloadStored } from '../api';

export interface WordExportProps extends Omit<ButtonProps, 'onClick'> {
  tempCode: string;
  params?: Record<string, unknown> | (() => Record<string, unknown>);
  resourceId?: string | number;
  children?: ReactNode;
}

type State = { phase: 'idle' } | { phase: 'running' } | { phase: 'done'; fileName: string; fileUrl: string } | { phase: 'failed'; reason: string };

export function WordExport({ tempCode, params, resourceId, children, ...rest }: WordExportProps) {
  const t = useT('transfer');
  const [state, setState] = useState<State>({ phase: 'idle' });

  const run = async () => {
    setState({ phase: 'running' });
    try {
      const data = await request<{ fileUrl?: string; fileName?: string }>('dataexport/data-export/v2/export-word', {
        method: 'POST',
        wrap: false,
        silent: true,
        timeout: 1000000,
        data: { tempCode, resourceId, apiParams: { params: typeof params === 'function' ? params() : params || {} } },
      });
      if (!data || !data.fileUrl || !data.fileName) {
        setState({ phase: 'failed', reason: t('web.word.abnormal') });
        return;
      }
      setState({ phase: 'done', fileName: data.fileName, fileUrl: data.fileUrl });
      await downloadStored(data.fileName, data.fileUrl).catch(() => undefined);
    } catch (err) {
      const reason = err instanceof RequestError && err.message ? err.message : t('web.word.abnormal');
      setState({ phase: 'failed', reason });
    }
  };

  const close = () => setState({ phase: 'idle' });
  return (
    <>
      <Button {...rest} onClick={run} loading={state.phase === 'running'}>{children || t('web.word.button')}</Button>
      <Modal open={state.phase !== 'idle'} title={t('web.word.title')} onCancel={close} footer={state.phase === 'running' ? null : (
        <Button onClick={close}>{t('web.close')}</Button>
      )} maskClosable={state.phase !== 'running'} closable={state.phase !== 'running'}>
        {state.phase === 'running' && (
          <div style={{ textAlign: 'center', padding: 24 }} data-testid="word-running"><Spin /> <div style={{ marginTop: 12 }}>{t('web.word.running')}</div></div>
        )}
        {state.phase === 'done' && (
          <Result status="success" title={<span style={{ color: '#52c41a' }}>{t('web.word.success')}</span>} data-testid="word-success"
            subTitle={<a onClick={() => downloadStored(state.fileName, state.fileUrl)}>{state.fileName}</a>} />
        )}
        {state.phase === 'failed' && (
          <Result status="error" title={<span style={{ color: '#ff4d4f' }}>{t('web.word.failed')}</span>} subTitle={state.reason} data-testid="word-failed" />
        )}
      </Modal>
    </>
  );
}

export default WordExport;
