import { useEffect, useMemo, useState } from 'react';
import { useLocation } from 'react-router';
import { Alert, Card, Select, Spin } from 'antd';
import { useT } from '@atrium/sdk';
import { formsApi, formTitle, type FormVersion } from '../api';
import { withDictionaries } from '../schemaInfo';
import { SchemaForm } from '../SchemaForm';

/** `/form-preview?formId=&version=`: any saved version, published or not, as it will render. */
export function PreviewPage() {
  const t = useT('forms');
  const q = new URLSearchParams(useLocation().search);
  const formId = q.get('formId') || '';
  const version = Number(q.get('version')) || undefined;
  const [def, setDef] = useState<FormVersion | null>(null);
  const [layout, setLayout] = useState('');
  useEffect(() => {
    if (formId) formsApi.detail(formId, version).then(setDef);
  }, [formId, version]);
  const schema = useMemo(() => (def ? withDictionaries(def.schema, def.dictionaries, t.locale) : null), [def, t.locale]);
  if (!formId) return <Alert type="info" title={t('web.pickForm')} />;
  if (!def || !schema) return <Spin />;
  const layouts = Object.keys(def.layouts || {});
  return (
    <Card
      data-testid="form-preview"
      title={`${formTitle(def, t.locale)} · v${def.version}`}
      extra={<Select style={{ width: 160 }} value={layout} onChange={setLayout} options={[{ value: '', label: t('web.oneColumn') }, ...layouts.map((l) => ({ value: l, label: l }))]} />}
    >
      <Alert type="warning" title={t('web.previewNote')} style={{ marginBottom: 16 }} data-testid="preview-note" />
      <SchemaForm schema={schema} columns={(layout && def.layouts[layout]?.columns) || 1} />
    </Card>
  );
}
