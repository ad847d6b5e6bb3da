import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { App, Button, Card, Result, Space, Spin } from 'antd';
import { useT } from '@atrium/sdk';
import { formsApi, formTitle, type FormVersion } from '../api';
import { withDictionaries } from '../schemaInfo';
import { SchemaForm, type SchemaFormHandle } from '../SchemaForm';

/** `/dynamic-form/render/:formId?layoutId=`: fill the published version, save a draft or submit; drawn in the
 * layout named, else in the one its author designed. */
export function RenderPage() {
  const t = useT('forms');
  const { message } = App.useApp();
  const location = useLocation();
  const navigate = useNavigate();
  const code = decodeURIComponent(location.pathname.split('/').filter(Boolean)[2] || '');
  const layoutId = new URLSearchParams(location.search).get('layoutId') || '';
  const form = useRef<SchemaFormHandle>(null);
  const [def, setDef] = useState<FormVersion | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [draftId, setDraftId] = useState<string | null>(null);
  useEffect(() => {
    formsApi.render(code, layoutId).then(setDef, (e) => setError(e.message));
  }, [code, layoutId]);
  const schema = useMemo(() => (def ? withDictionaries(def.schema, def.dictionaries, t.locale) : null), [def, t.locale]);
  if (error) return <Result status="404" title={error} />;
  if (!def || !schema) return <Spin />;
  const send = async (draft: boolean) => {
    const filled = form.current;
    if (!filled || (!draft && !filled.validate())) return;
    setBusy(true);
    try {
      const data = filled.data();
      const saved = draftId ? await formsApi.update(draftId, data, draft) : await formsApi.submit(def.code, data, draft);
      if (draft) {
        setDraftId(saved.submissionId);
        message.success(t('web.draftSaved'));
      } else {
        setDraftId(null);
        filled.reset();
        message.success(t('web.submitted'));
      }
    } catch (e: any) {
      if (!filled.showServerErrors(e)) message.error(e.message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title={formTitle(def, t.locale)} extra={<Button onClick={() => navigate(`/dynamic-form/render/${encodeURIComponent(def.code)}/submissions`)}>{t('web.mySubmissions')}</Button>}>
      <SchemaForm ref={form} schema={schema} columns={def.layout?.columns || def.layouts?.L1?.columns || 1} />
      <Space>
        <Button type="primary" loading={busy} onClick={() => send(false)} data-testid="form-submit">{t('web.submit')}</Button>
        <Button loading={busy} onClick={() => send(true)}>{t('web.saveDraft')}</Button>
      </Space>
    </Card>
  );
}
