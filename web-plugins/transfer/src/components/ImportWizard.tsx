/**
 * The import wizard (spec 2.4 and 4): 1 upload (one xls or xlsx file), 2 choose the header row among the
 * first 50 rows, 3 match fields (auto match, clear match; a column matched twice is refused), 4 result
 * (total, successes, failures, the failed rows as Excel). `ImportButton` is the one-step flow: upload,
 * then the result dialog. Exposed as `./ImportWizard`.
 */
import { useEffect, useEffectEvent, useMemo, useState } from 'react';
import { App as AntApp, Button, Modal, Radio, Select, Space, Steps, Table, Upload } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useT } from '@atrium/sdk';
import { columns as loadColumns, importData, result as loadResult, start, uploadWorkbook, type Columns, type ImportResult, type Uploaded } from '../api';
import { ImportResultView } from './ImportResultView';

const ALLOWED = ['xls', 'xlsx'];

function extension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** The warning for a file the wizard will not take (spec 5: xls or xlsx only; zip named but refused). */
export function useFileCheck() {
  const t = useT('transfer');
  const { message } = AntApp.useApp();
  return (file: File, count = 1): boolean => {
    if (count > 1) {
      message.warning(t('web.import.oneFile'));
      return false;
    }
    if (!ALLOWED.includes(extension(file.name))) {
      message.warning(t('web.import.badType'));
      return false;
    }
    return true;
  };
}

function useResultPolling(initial: ImportResult | null): ImportResult | null {
  const [res, setRes] = useState<ImportResult | null>(initial);
  useEffect(() => setRes(initial), [initial]);
  useEffect(() => {
    if (!res || res.status === 2 || res.status === 3) return undefined;
    const timer = setTimeout(() => {
      loadResult(res.batchId).then(setRes, () => undefined);
    }, 2000);
    return () => clearTimeout(timer);
  }, [res]);
  return res;
}

export interface ImportWizardProps {
  importId: string;
  onFinished?: (result: ImportResult) => void;
}

export function ImportWizard({ importId, onFinished }: ImportWizardProps) {
  const t = useT('transfer');
  const { message } = AntApp.useApp();
  const check = useFileCheck();
  const [step, setStep] = useState(0);
  const [busy, setBusy] = useState(false);
  const [uploaded, setUploaded] = useState<Uploaded | null>(null);
  const [headerRow, setHeaderRow] = useState(1);
  const [cols, setCols] = useState<Columns | null>(null);
  const [mapping, setMapping] = useState<Record<string, number | null>>({});
  const [started, setStarted] = useState<ImportResult | null>(null);
  const res = useResultPolling(started);

  // told once when the import ends (done or failed), not on every poll
  const status = res?.status;
  const ended = useEffectEvent(() => {
    if (res && (res.status === 2 || res.status === 3)) onFinished?.(res);
  });
  useEffect(() => ended(), [status]);

  const reset = () => {
    setStep(0);
    setUploaded(null);
    setCols(null);
    setMapping({});
    setStarted(null);
    setHeaderRow(1);
  };

  const toMatching = async () => {
    if (!uploaded) return;
    setBusy(true);
    try {
      const c = await loadColumns(uploaded.batchId, headerRow);
      setCols(c);
      setMapping(Object.fromEntries(c.autoMatch.map((m) => [m.field, m.column])));
      setStep(2);
    } catch {
      /* shown */
    } finally {
      setBusy(false);
    }
  };

  const choose = (field: string, column: number | null) => {
    if (column !== null && column !== undefined) {
      const other = Object.entries(mapping).find(([k, v]) => k !== field && v === column);
      if (other && cols) {
        const label = cols.fields.find((f) => f.key === other[0])?.label || other[0];
        message.warning(t('web.import.duplicate', { field: label }));
        return;
      }
    }
    setMapping((m) => ({ ...m, [field]: column ?? null }));
  };

  const run = async () => {
    if (!uploaded || !cols) return;
    const missing = cols.fields.find((f) => f.required && (mapping[f.key] === undefined || mapping[f.key] === null));
    if (missing) {
      message.warning(t('web.import.requiredField', { field: missing.label }));
      return;
    }
    setBusy(true);
    try {
      const full = Object.fromEntries(cols.fields.map((f) => [f.key, mapping[f.key] ?? null]));
      setStarted(await start(uploaded.batchId, headerRow, full));
      setStep(3);
    } catch {
      /* shown */
    } finally {
      setBusy(false);
    }
  };

  const previewColumns: ColumnsType<string[]> = useMemo(() => {
    const width = Math.max(0, ...(uploaded?.rows || []).map((r) => r.length));
    const out: ColumnsType<string[]> = [{
      title: t('web.import.headerRow'), key: 'pick', width: 90, fixed: 'left',
      render: (_, __, i) => <Radio checked={headerRow === i + 1} onChange={() => setHeaderRow(i + 1)} data-testid={`header-row-${i + 1}`} />,
    }, { title: '#', key: 'n', width: 50, render: (_, __, i) => i + 1 }];
    for (let c = 0; c < width; c += 1) out.push({ title: String.fromCharCode(65 + (c % 26)) + (c >= 26 ? Math.floor(c / 26) : ''), key: `c${c}`, ellipsis: true, render: (_, row) => row[c] });
    return out;
  }, [uploaded, headerRow, t]);

  return (
    <div data-testid="import-wizard">
      <Steps current={step} style={{ marginBottom: 16 }} items={[
        { title: t('web.import.step1') }, { title: t('web.import.step2') }, { title: t('web.import.step3') }, { title: t('web.import.step4') },
      ]} />
      {step === 0 && (
        <Upload.Dragger accept=".xls,.xlsx" multiple={false} maxCount={1} showUploadList={false} disabled={busy}
          beforeUpload={(file, list) => (check(file, list.length) ? true : Upload.LIST_IGNORE)}
          customRequest={async ({ file, onSuccess, onError }) => {
            setBusy(true);
            try {
              const up = await uploadWorkbook(file as File, importId);
              setUploaded(up);
              setHeaderRow(1);
              setStep(1);
              onSuccess?.(up);
            } catch (err) {
              onError?.(err as Error);
            } finally {
              setBusy(false);
            }
          }}>
          <p style={{ fontSize: 16, margin: '12px 0' }} data-testid="import-drop">{t('web.import.drop')}</p>
          <p className="ant-upload-hint">{t('web.import.dropHint')}</p>
        </Upload.Dragger>
      )}
      {step === 1 && uploaded && (
        <>
          <p>{t('web.import.previewHint', { rows: uploaded.rows.length, total: uploaded.totalRows })}</p>
          <Table<string[]> size="small" rowKey={(_, i) => String(i)} columns={previewColumns} dataSource={uploaded.rows}
            pagination={false} scroll={{ x: 'max-content', y: 360 }} />
          <Space style={{ marginTop: 12 }}>
            <Button onClick={reset}>{t('web.back')}</Button>
            <Button type="primary" loading={busy} onClick={toMatching} data-testid="to-matching">{t('web.next')}</Button>
          </Space>
        </>
      )}
      {step === 2 && cols && (
        <>
          <Space style={{ marginBottom: 12 }}>
            <Button onClick={() => setMapping(Object.fromEntries(cols.autoMatch.map((m) => [m.field, m.column])))} data-testid="auto-match">{t('web.import.autoMatch')}</Button>
            <Button onClick={() => setMapping({})} data-testid="clear-match">{t('web.import.clearMatch')}</Button>
          </Space>
          <Table size="small" rowKey="key" pagination={false} dataSource={cols.fields} columns={[
            { title: t('web.import.field'), key: 'label', render: (_, f) => <span>{f.required && <span style={{ color: '#ff4d4f' }}>* </span>}{f.label}</span> },
            {
              title: t('web.import.column'), key: 'column', render: (_, f) => (
                <span data-testid={`match-${f.key}`}>
                  <Select allowClear style={{ width: 260 }} placeholder={t('web.import.notMatched')} aria-label={f.label} value={mapping[f.key] ?? undefined}
                    onChange={(v) => choose(f.key, v === undefined ? null : Number(v))}
                    options={cols.columns.map((c) => ({ value: c.index, label: c.title || `#${c.index + 1}` }))} />
                </span>
              ),
            },
          ]} />
          <Space style={{ marginTop: 12 }}>
            <Button onClick={() => setStep(1)}>{t('web.back')}</Button>
            <Button type="primary" loading={busy} onClick={run} data-testid="start-import">{t('web.import.start')}</Button>
          </Space>
        </>
      )}
      {step === 3 && res && (
        <>
          <ImportResultView result={res} />
          <Button style={{ marginTop: 12 }} onClick={reset} data-testid="import-again">{t('web.import.again')}</Button>
        </>
      )}
    </div>
  );
}

/** The one-step import: upload, then the result dialog (spec 2.4 and 8). */
export function ImportButton({ importId, onFinished, children }: ImportWizardProps & { children?: React.ReactNode }) {
  const t = useT('transfer');
  const { message } = AntApp.useApp();
  const check = useFileCheck();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<ImportResult | null>(null);
  const res = useResultPolling(done);
  return (
    <>
      <Upload accept=".xls,.xlsx" showUploadList={false} maxCount={1}
        beforeUpload={(file, list) => (check(file, list.length) ? true : Upload.LIST_IGNORE)}
        customRequest={async ({ file, onSuccess, onError }) => {
          setBusy(true);
          try {
            const r = await importData(file as File, importId);
            if (r.errorMsg) message.error(r.errorMsg);
            else if (!r.hasExcel && r.status === 2) message.success(t('web.import.done'));
            if (r.hasExcel || r.status < 2) setDone(r);
            onFinished?.(r);
            onSuccess?.(r);
          } catch (err) {
            onError?.(err as Error);
          } finally {
            setBusy(false);
          }
        }}>
        <Button loading={busy}>{children || t('web.import.button')}</Button>
      </Upload>
      <Modal open={!!res} title={t('web.import.resultTitle')} onCancel={() => setDone(null)} footer={null}>
        {res && <ImportResultView result={res} />}
      </Modal>
    </>
  );
}

export default ImportWizard;
