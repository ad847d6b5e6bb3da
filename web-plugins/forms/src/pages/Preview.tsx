import { useEffect, useMemo, useState } from 'react';
import { useLocation } from 'react-router';
import { Alert, Card, Result, Select, Spin } from 'antd';
import { useT } from '@atrium/sdk';
import { formsApi, formTitle, type FormVersion } from '../api';
import { NoPermission } from '../NoPermission';
import { withDictionaries } from '../schemaInfo';
import { SchemaForm } from '../SchemaForm';

/** The layout a form is drawn in until another is picked: the one its author designed (L1), else its first. */
export function designedLayout(layouts: Record<string, unknown> | undefined): string {
  const names = Object.keys(layouts || {}).sort();
  return names.includes('L1') ? 'L1' : names[0] || '';
}

/** `/form-preview?formId=&version=`: any saved version, published or not, as it will render, in the layout
 * its author designed (the others offered beside it). Only form designers may open it: others are shown the
 * no-permission page. */
export function PreviewPage() {
  const t = useT('forms');
  const q = new URLSearchParams(useLocation().search);
  const formId = q.get('formId') || '';
  const version = Number(q.get('version')) || undefined;
  const [def, setDef] = useState<FormVersion | null>(null);
  const [failure, setFailure] = useState<{ code?: number; message?: string } | null>(null);
  const [picked, setPicked] = useState<string | null>(null);
  useEffect(() => {
    if (formId) formsApi.detail(formId, version, true).then(setDef, setFailure);
  }, [formId, version]);
  const schema = useMemo(() => (def ? withDictionaries(def.schema, def.dictionaries, t.locale) : null), [def, t.locale]);
  if (!formId) return <Alert type="info" title={t('web.pickForm')} />;
  if (failure) return failure.code === 403 ? <NoPermission /> : <Result status="404" title={failure.message} data-testid="preview-failed" />;
  if (!def || !schema) return <Spin />;
  const layouts = def.layouts || {};
  const names = Object.keys(layouts).sort();
  const layout = picked ?? designedLayout(layouts);
  return (
    <Card
      data-testid="form-preview"
      title={`${formTitle(def, t.locale)} · v${def.version}`}
      extra={names.length > 0 && (
        <Select style={{ width: 180 }} value={layout} onChange={setPicked} data-testid="preview-layout"
          options={names.map((l) => ({ value: l, label: t('web.canvas.layoutColumns', { layout: l, columns: layouts[l]?.columns || 1 }) }))} />
      )}
    >
      <Alert type="warning" title={t('web.previewNote')} style={{ marginBottom: 16 }} data-testid="preview-note" />
      <SchemaForm schema={schema} columns={layouts[layout]?.columns || 1} />
    </Card>
  );
}
