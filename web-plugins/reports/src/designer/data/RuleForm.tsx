/** One row permission in a dialog: whom it restricts, on which field, the operator and the values. */
import { Form, Modal, Radio, Select, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { designerApi } from '../panel/api';
import { useDT } from './i18n';
import { SubjectSelect } from '../panel/SubjectSelect';
import type { SubjectType } from '../panel/types';
import { arityOf, MAX_VALUES, operatorsFor, typedValues, valuesProblem, type RowRule, type RuleOperator, type RuleValue } from './rowPermissions';
import type { DatasetField } from './types';
import { useIsPhone } from './useIsPhone';

interface RuleFormValues {
  subjectType: SubjectType;
  subjectId?: number;
  fieldId?: string;
  operator: RuleOperator;
  value: RuleValue[];
}

export interface RuleFormProps {
  /** The rule edited, or null for a new one. */
  rule: RowRule | null;
  fields: DatasetField[];
  subjectName: (type: SubjectType, id: number) => string | undefined;
  onSubmit: (rule: RowRule, subjectLabel: string) => void;
  onClose: () => void;
}

/** Distinct values of a text field, offered as the values to pick (others may be typed). */
function useFieldValues(field: DatasetField | undefined): string[] {
  const [values, setValues] = useState<string[]>([]);
  const fieldId = field?.type === 'text' ? field.id : null;
  useEffect(() => {
    setValues([]);
    if (!fieldId) return undefined;
    let alive = true;
    designerApi
      .fieldValues([fieldId])
      .then((list) => alive && setValues((Array.isArray(list) ? list : []).filter((v) => v !== null && v !== '').slice(0, 500).map(String)))
      .catch(() => undefined);
    return () => {
      alive = false;
    };
  }, [fieldId]);
  return values;
}

export function RuleForm({ rule, fields, subjectName, onSubmit, onClose }: RuleFormProps) {
  const { t } = useDT();
  const phone = useIsPhone();
  const [form] = Form.useForm<RuleFormValues>();
  const [subjectLabel, setSubjectLabel] = useState('');
  const subjectType = Form.useWatch('subjectType', form) || rule?.subjectType || 'user';
  const fieldId = Form.useWatch('fieldId', form);
  const operator: RuleOperator = Form.useWatch('operator', form) || rule?.operator || 'eq';
  const field = fields.find((f) => f.id === fieldId);
  const suggestions = useFieldValues(field);
  const operators = operatorsFor(field?.type);

  const fieldType = field?.type;
  useEffect(() => {
    if (fieldType && !operatorsFor(fieldType).includes(form.getFieldValue('operator'))) form.setFieldValue('operator', 'eq');
  }, [fieldType, form]);

  const submit = async () => {
    const values = await form.validateFields();
    const chosen = fields.find((f) => f.id === values.fieldId);
    const label = subjectLabel || subjectName(values.subjectType, values.subjectId as number) || `#${values.subjectId}`;
    onSubmit({ id: rule?.id, subjectType: values.subjectType, subjectId: values.subjectId as number, fieldId: values.fieldId as string, operator: values.operator, value: typedValues(chosen, values.value || []) }, label);
  };

  const initial: RuleFormValues = rule
    ? { subjectType: rule.subjectType, subjectId: rule.subjectId, fieldId: rule.fieldId, operator: rule.operator, value: rule.value }
    : { subjectType: 'user', operator: 'eq', value: [] };

  return (
    <Modal
      open
      title={rule ? t('rowPermissions.form.editTitle') : t('rowPermissions.form.addTitle')}
      onCancel={onClose}
      onOk={() => void submit().catch(() => undefined)}
      okText={t('rowPermissions.form.ok')}
      cancelText={t('common.cancel')}
      okButtonProps={{ 'data-testid': 'rule-ok' }}
      width={phone ? '100%' : 560}
      style={phone ? { top: 8, maxWidth: 'calc(100vw - 16px)' } : undefined}
      destroyOnHidden
    >
      <Form<RuleFormValues> form={form} layout="vertical" initialValues={initial} data-testid="rule-form" requiredMark={false}>
        <Form.Item name="subjectType" label={t('rowPermissions.form.subjectType')}>
          <Radio.Group
            optionType="button"
            data-testid="rule-subject-type"
            options={(['user', 'role'] as const).map((v) => ({ value: v, label: t(`rowPermissions.${v}`) }))}
            onChange={() => {
              form.setFieldValue('subjectId', undefined);
              setSubjectLabel('');
            }}
          />
        </Form.Item>
        <Form.Item name="subjectId" label={subjectType === 'user' ? t('rowPermissions.user') : t('rowPermissions.role')} rules={[{ required: true, message: t(`rowPermissions.form.${subjectType}Required`) }]}>
          <SubjectSelect
            type={subjectType}
            valueLabel={rule ? subjectName(rule.subjectType, rule.subjectId) : undefined}
            placeholder={t(`rowPermissions.form.${subjectType}Search`)}
            testId="rule-subject"
            onChange={(_, label) => setSubjectLabel(label)}
          />
        </Form.Item>
        <Form.Item name="fieldId" label={t('rowPermissions.field')} rules={[{ required: true, message: t('rowPermissions.form.fieldRequired') }]}>
          <Select
            showSearch
            optionFilterProp="label"
            data-testid="rule-field"
            placeholder={t('rowPermissions.form.fieldPick')}
            options={fields.map((f) => ({ value: f.id, label: f.name }))}
            onChange={() => form.setFieldValue('value', [])}
          />
        </Form.Item>
        <Form.Item name="operator" label={t('rowPermissions.operator')}>
          <Select data-testid="rule-operator" options={operators.map((op) => ({ value: op, label: t(`rowPermissions.operators.${op}`) }))} />
        </Form.Item>
        <Form.Item
          name="value"
          label={t('rowPermissions.values')}
          extra={<Typography.Text type="secondary" style={{ fontSize: 12 }}>{t(`rowPermissions.form.hint.${arityOf(operator)}`, { max: MAX_VALUES })}</Typography.Text>}
          dependencies={['operator']}
          rules={[
            {
              validator: (_, value: RuleValue[] | undefined) => {
                const problem = valuesProblem(form.getFieldValue('operator') || 'eq', typedValues(field, value || []));
                return problem ? Promise.reject(new Error(t(`rowPermissions.form.${problem}`, { max: MAX_VALUES }))) : Promise.resolve();
              },
            },
          ]}
        >
          <Select
            mode="tags"
            data-testid="rule-values"
            placeholder={t('rowPermissions.form.valuesPlaceholder')}
            options={suggestions.map((v) => ({ value: v, label: v }))}
            notFoundContent={null}
            tokenSeparators={field && field.type !== 'text' ? [',', ' '] : undefined}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
