/**
 * The document editor frame (/fileCenter/editor?id=&isEdit=0|1&server=): an attachment opened in the
 * browser's editor, a spreadsheet for xlsx and a document for docx. Read-only unless isEdit is 1; Save
 * stores the content as a new version of the file (same name, new id). A Word document holding what the
 * editor cannot keep (tables, pictures, ...) is always read-only, with a notice naming it and a download
 * button. The editor itself (Univer) is loaded only here, once the file's kind is known.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Alert, App as AntApp, Button, Result, Space, Spin, Tag, Typography } from 'antd';
import { appUrl, useT } from '@atrium/sdk';
import {
  apiBase,
  downloadAddress,
  keptOutParts,
  openFile,
  saveFile,
  type EditorFile,
  type MountedEditor,
} from '../editor/editorApi';

/** Space kept below the editor (the page's own padding). */
const BOTTOM_GAP = 20;
const MIN_HEIGHT = 320;

/** The editor's height: from where its box starts down to the bottom of the window, whatever the toolbar
 * above it takes (one line on a desktop, several on a phone). */
function useFillHeight(box: RefObject<HTMLDivElement | null>, layout: unknown): number {
  const [height, setHeight] = useState(MIN_HEIGHT);
  useLayoutEffect(() => {
    const measure = () => {
      const top = box.current?.getBoundingClientRect().top ?? 0;
      setHeight(Math.max(MIN_HEIGHT, Math.floor(window.innerHeight - top - BOTTOM_GAP)));
    };
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [box, layout]);
  return height;
}

type Phase = { state: 'loading' } | { state: 'ready' } | { state: 'error'; message: string };

export interface EditorWindow {
  __atriumEditor?: { api: unknown; fileId: number; savedId: number | null };
}

/** The server's message (already in the user's language), or '' for the generic one. */
function errorText(err: unknown): string {
  return err instanceof Error ? err.message : '';
}

export function DocumentEditor() {
  const t = useT('files');
  const { message } = AntApp.useApp();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const editable = params.get('isEdit') === '1';
  const base = useMemo(() => apiBase(params.get('server')), [params]);
  const container = useRef<HTMLDivElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const editor = useRef<MountedEditor | null>(null);
  const [file, setFile] = useState<EditorFile | null>(null);
  const [phase, setPhase] = useState<Phase>({ state: 'loading' });
  const [saving, setSaving] = useState(false);
  const [savedId, setSavedId] = useState<number | null>(null);
  const locale = t.locale;
  const validId = Number.isInteger(id) && id > 0;
  /** Save is offered when asked for (isEdit=1) and the file holds nothing the editor would lose. */
  const canSave = editable && !file?.readOnly;
  const height = useFillHeight(box, `${phase.state}:${file?.fileName}:${file?.readOnly}:${savedId}`);

  useEffect(() => {
    if (!validId) return undefined;
    let cancelled = false;
    setPhase({ state: 'loading' });
    (async () => {
      try {
        const data = await openFile(base, id);
        const options = { locale, editable: editable && !data.readOnly };
        const mount = data.kind === 'sheet'
          ? async (el: HTMLElement) => (await import('../editor/univerSheet')).mountSheet(el, data.data, options)
          : async (el: HTMLElement) => (await import('../editor/univerDoc')).mountDoc(el, data.data, options);
        if (cancelled || !container.current) return;
        setFile(data);
        const mounted = await mount(container.current);
        if (cancelled) {
          mounted.dispose();
          return;
        }
        editor.current = mounted;
        (window as unknown as EditorWindow).__atriumEditor = { api: mounted.api, fileId: data.fileId, savedId: null };
        setPhase({ state: 'ready' });
      } catch (err) {
        if (!cancelled) setPhase({ state: 'error', message: errorText(err) });
      }
    })();
    return () => {
      cancelled = true;
      editor.current?.dispose();
      editor.current = null;
      delete (window as unknown as EditorWindow).__atriumEditor;
    };
  }, [base, id, validId, editable, locale]);

  const download = async () => {
    if (!file) return;
    try {
      window.open(appUrl(await downloadAddress(base, file)), '_blank', 'noopener');
    } catch {
      /* shown */
    }
  };

  const save = async () => {
    if (!editor.current || !file) return;
    setSaving(true);
    const done = message.loading(t('web.editor.saving'), 0);
    try {
      const saved = await saveFile(base, file.fileId, file.kind, await editor.current.snapshot());
      setSavedId(saved.fileId);
      const hook = (window as unknown as EditorWindow).__atriumEditor;
      if (hook) hook.savedId = saved.fileId;
      message.success(t('web.editor.saved', { name: file.fileName }));
    } catch (err) {
      message.error(errorText(err) || t('web.editor.saveFailed'));
    } finally {
      done();
      setSaving(false);
    }
  };

  if (!validId) {
    return <div className="at-page"><Result status="warning" title={t('web.editor.missingId')}
      extra={<Button onClick={() => navigate('/fileCenter')}>{t('web.editor.back')}</Button>} /></div>;
  }

  return (
    <div className="at-page" data-testid="document-editor" style={{ display: 'flex', flexDirection: 'column', gap: 8, padding: 12 }}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 8, flexWrap: 'wrap' }}>
        <Button size="small" onClick={() => navigate('/fileCenter')}>{t('web.editor.back')}</Button>
        <Typography.Text strong ellipsis style={{ flex: '1 1 160px', minWidth: 0 }} data-testid="editor-file-name">
          {file?.fileName || t('web.editor.title')}
        </Typography.Text>
        <Space size={4} wrap>
          {file?.previousId ? <Tag color="blue">{t('web.editor.version')}</Tag> : null}
          {canSave ? null : <Tag data-testid="editor-read-only">{t('web.editor.readOnly')}</Tag>}
          {savedId !== null && (
            <Button size="small" type="link" onClick={() => navigate(`/fileCenter/editor?id=${savedId}&isEdit=1`)} data-testid="editor-open-new">
              {t('web.editor.openNew')}
            </Button>
          )}
          {canSave && (
            <Button type="primary" size="small" loading={saving} disabled={phase.state !== 'ready'} onClick={save} data-testid="editor-save">
              {t('web.editor.save')}
            </Button>
          )}
        </Space>
      </div>
      {base.ignored && <Alert type="warning" showIcon message={t('web.editor.otherServer', { server: base.ignored })} />}
      {file?.readOnly && (
        <Alert
          type="info"
          showIcon
          data-testid="editor-cannot-keep"
          message={t('web.editor.cannotKeepTitle')}
          description={t('web.editor.cannotKeep', { parts: keptOutParts(t, file.readOnlyReasons) })}
          action={<Button size="small" onClick={download} data-testid="editor-download">{t('web.editor.download')}</Button>}
        />
      )}
      <div ref={box} style={{ position: 'relative', height, border: '1px solid var(--at-border, #e5e7eb)', borderRadius: 6, overflow: 'hidden', isolation: 'isolate' }}>
        <div ref={container} data-testid="editor-canvas" style={{ position: 'absolute', inset: 0 }} />
        {phase.state === 'loading' && (
          <div style={{ position: 'absolute', inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center', background: 'var(--at-panel, #fff)' }}>
            <Spin size="large" tip={t('web.editor.loading')}><div style={{ width: 160, height: 80 }} /></Spin>
          </div>
        )}
        {phase.state === 'error' && (
          <div style={{ position: 'absolute', inset: 0, background: 'var(--at-panel, #fff)' }}>
            <Result status="error" title={t('web.editor.loadFailed')} subTitle={phase.message} data-testid="editor-error" />
          </div>
        )}
      </div>
    </div>
  );
}

export default DocumentEditor;
