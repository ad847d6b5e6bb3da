/** The type and role pickers of a field, shared by the creator and the field list. */
import { Select } from 'antd';
import { useDT } from './i18n';
import { FIELD_ROLES, FIELD_TYPES, type FieldRole, type FieldType } from './types';

export function TypeSelect({ value, onChange, testId }: { value: FieldType; onChange: (v: FieldType) => void; testId?: string }) {
  const { t } = useDT();
  return <Select<FieldType> size="small" value={value} onChange={onChange} data-testid={testId} style={{ width: 110 }} options={FIELD_TYPES.map((v) => ({ value: v, label: t(`field.types.${v}`) }))} />;
}

export function RoleSelect({ value, onChange, testId }: { value: FieldRole; onChange: (v: FieldRole) => void; testId?: string }) {
  const { t } = useDT();
  return <Select<FieldRole> size="small" value={value} onChange={onChange} data-testid={testId} style={{ width: 110 }} options={FIELD_ROLES.map((v) => ({ value: v, label: t(`field.roles.${v}`) }))} />;
}
