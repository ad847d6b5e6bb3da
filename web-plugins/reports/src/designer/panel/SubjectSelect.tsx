/** A searchable picker of one user or one role of the tenant (tenant administrators). */
import { Select } from 'antd';
import { useSubjectSearch, userLabel } from './subjects';
import type { SubjectType } from './types';

export interface SubjectSelectProps {
  type: SubjectType;
  value?: number | null;
  /** The label of the current value when the search has not found it (yet). */
  valueLabel?: string;
  placeholder?: string;
  onChange?: (id: number | null, label: string) => void;
  allowClear?: boolean;
  testId?: string;
}

export function SubjectSelect({ type, value, valueLabel, placeholder, onChange, allowClear, testId }: SubjectSelectProps) {
  const { subjects, setKeyword, loading } = useSubjectSearch(true);
  const found = type === 'user' ? subjects.users.map((u) => ({ value: Number(u.id), label: userLabel(u) })) : subjects.roles.map((r) => ({ value: Number(r.id), label: r.name }));
  const options = value != null && !found.some((o) => o.value === value) ? [{ value, label: valueLabel || `#${value}` }, ...found] : found;
  return (
    <Select<number>
      showSearch
      allowClear={allowClear}
      filterOption={false}
      loading={loading}
      data-testid={testId}
      style={{ width: '100%' }}
      placeholder={placeholder}
      value={value ?? undefined}
      options={options}
      onSearch={setKeyword}
      onChange={(id) => onChange?.(id ?? null, options.find((o) => o.value === id)?.label || '')}
      onClear={() => setKeyword('')}
    />
  );
}
