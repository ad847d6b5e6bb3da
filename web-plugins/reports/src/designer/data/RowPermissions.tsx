/** A dataset's row permissions (tenant administrators): the rules in a table, edited in a dialog; saving
 * replaces them all, and a refused rule shows the server's message. */
import { Alert, App, Button, Space, Spin, Tag, Tooltip, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useDT } from './i18n';
import { useSubjectNames } from '../panel/subjects';
import { dataApi } from './api';
import { MAX_RULES, rulesBody, type RowRule } from './rowPermissions';
import { RuleForm } from './RuleForm';
import { RuleCards, RuleTable, type RuleListProps } from './RuleTable';
import type { Dataset } from './types';
import { useIsPhone } from './useIsPhone';

type Editing = { index: number | null; rule: RowRule | null };

const sameRules = (a: RowRule[], b: RowRule[]) => JSON.stringify(rulesBody(a)) === JSON.stringify(rulesBody(b));

export function RowPermissions({ dataset }: { dataset: Dataset }) {
  const { t } = useDT();
  const { message } = App.useApp();
  const phone = useIsPhone();
  const names = useSubjectNames(true);
  const [saved, setSaved] = useState<RowRule[] | null>(null);
  const [rules, setRules] = useState<RowRule[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [editing, setEditing] = useState<Editing | null>(null);
  const fields = (dataset.fields || []).filter((f) => f.checked !== false);

  const load = useCallback(() => {
    setLoadError(null);
    dataApi
      .rowPermissions(dataset.id)
      .then((list) => {
        setSaved(list || []);
        setRules(list || []);
      })
      .catch((e: Error) => setLoadError(e.message));
  }, [dataset.id]);
  useEffect(load, [load]);

  const change = (next: RowRule[]) => {
    setRules(next);
    setError(null);
  };
  const submit = (rule: RowRule, subjectLabel: string) => {
    names.remember(rule.subjectType, rule.subjectId, subjectLabel);
    change(editing?.index == null ? [...rules, rule] : rules.map((r, i) => (i === editing.index ? rule : r)));
    setEditing(null);
  };
  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      const answer = await dataApi.saveRowPermissions(dataset.id, rules);
      setSaved(answer || []);
      setRules(answer || []);
      message.success(t('rowPermissions.saved'));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setSaving(false);
    }
  };

  if (loadError) return <Alert type="error" showIcon message={t('rowPermissions.loadFailed')} description={loadError} data-testid="rowperm-load-error" />;
  if (!saved) return <div style={{ padding: 24, textAlign: 'center' }}><Spin /></div>;
  const dirty = !sameRules(rules, saved);
  const full = rules.length >= MAX_RULES;
  const listProps: RuleListProps = {
    rules,
    subjectText: (r) => names.nameOf(r.subjectType, r.subjectId) || r.subjectName || t('rowPermissions.unknownSubject', { id: r.subjectId }),
    fieldName: (r) => (dataset.fields || []).find((f) => f.id === r.fieldId)?.name,
    onEdit: (index) => setEditing({ index, rule: rules[index] }),
    onDelete: (index) => change(rules.filter((_, i) => i !== index)),
  };

  return (
    <div data-testid="rowperm" data-dirty={dirty ? '1' : '0'}>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 12 }}>
        {t('rowPermissions.intro')}
      </Typography.Paragraph>
      <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 8, marginBottom: 12 }}>
        <Tooltip title={full ? t('rowPermissions.full', { max: MAX_RULES }) : undefined}>
          <Button data-testid="rowperm-add" disabled={full} onClick={() => setEditing({ index: null, rule: null })}>
            {t('rowPermissions.add')}
          </Button>
        </Tooltip>
        <Typography.Text type="secondary" data-testid="rowperm-count">
          {t('rowPermissions.count', { n: rules.length, max: MAX_RULES })}
        </Typography.Text>
        <div style={{ flex: 1 }} />
        {dirty && <Tag color="orange" data-testid="rowperm-unsaved">{t('rowPermissions.unsaved')}</Tag>}
        <Space size={8}>
          <Button disabled={!dirty || saving} onClick={() => change(saved)} data-testid="rowperm-revert">
            {t('rowPermissions.revert')}
          </Button>
          <Button type="primary" loading={saving} disabled={!dirty} onClick={() => void save()} data-testid="rowperm-save">
            {t('common.save')}
          </Button>
        </Space>
      </div>
      {error && <Alert type="error" showIcon closable message={t('rowPermissions.refused')} description={error} onClose={() => setError(null)} style={{ marginBottom: 12 }} data-testid="rowperm-error" />}
      {phone ? <RuleCards {...listProps} /> : <RuleTable {...listProps} />}
      {editing && <RuleForm rule={editing.rule} fields={fields} subjectName={(type, id) => names.nameOf(type, id)} onSubmit={submit} onClose={() => setEditing(null)} />}
    </div>
  );
}
