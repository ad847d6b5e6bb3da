/**
 * The widgets and fields react-jsonschema-form's antd theme does not have: numbers that refuse words and are
 * checked against the schema rather than clamped, choices without an empty first option, dates and date
 * ranges, people, file and picture uploads through the files plugin, and the section and divider that only
 * lay the form out.
 */
import { useEffect, useRef, useState } from 'react';
import dayjs from 'dayjs';
import { Button, DatePicker, Divider, Input, Select, Typography, Upload } from 'antd';
import { enumOptionsIndexForValue, enumOptionsValueForIndex, type FieldProps, type WidgetProps } from '@rjsf/utils';
import { upload, useT } from '@atrium/sdk';
import { formsApi, type Person } from '../api';
import { numberText, numberValue, typedNumber } from '../numberText';
import { kindOf } from '../schemaInfo';

const WIDE = { width: '100%' };
const DAY = 'YYYY-MM-DD';

/** A number: words are refused as they are typed (the field says it takes numbers only) and out-of-range
 * values stay as typed, so the field's message says what is wrong rather than that it is empty. */
export function NumberWidget({ id, value, label, disabled, readonly, schema, onChange, onBlur, onFocus }: WidgetProps) {
  const t = useT('forms');
  const [text, setText] = useState(() => numberText(value));
  const [shown, setShown] = useState<unknown>(value);
  const [refused, setRefused] = useState(false);
  if (!Object.is(shown, value)) {
    // the value changed from outside (a reset, a loaded submission): show it unless the text already says it
    setShown(value);
    if (!Object.is(numberValue(text), value)) setText(numberText(value));
  }
  const type = (raw: string) => {
    const taken = typedNumber(raw);
    setRefused(taken === null);
    if (taken === null) return;
    const next = numberValue(taken);
    setText(taken);
    setShown(next);
    onChange(next);
  };
  return (
    <>
      <Input
        id={id}
        style={WIDE}
        inputMode={schema.type === 'integer' ? 'numeric' : 'decimal'}
        autoComplete="off"
        value={text}
        disabled={disabled || readonly}
        status={refused ? 'warning' : undefined}
        onChange={(e) => type(e.target.value)}
        onBlur={() => { setRefused(false); onBlur(id, value); }}
        onFocus={() => onFocus(id, value)}
      />
      {refused && (
        <div role="alert" data-testid="numbers-only" style={{ color: 'var(--ant-color-warning-text, #d48806)', fontSize: 12 }}>
          {t('web.numbersOnly', { field: label || t('v.form') })}
        </div>
      )}
    </>
  );
}

/** A choice among the field's options, cleared with the select's own button: no empty option before them. */
export function SelectWidget({ id, value, disabled, readonly, multiple, options, placeholder, onChange, onBlur, onFocus }: WidgetProps) {
  const t = useT('forms');
  const { enumOptions = [], enumDisabled, emptyValue } = options;
  const off = new Set(Array.isArray(enumDisabled) ? enumDisabled : []);
  const selected = enumOptionsIndexForValue(value, enumOptions, Boolean(multiple));
  return (
    <Select
      id={id}
      style={WIDE}
      mode={multiple ? 'multiple' : undefined}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      placeholder={placeholder || t('web.choose')}
      value={selected ?? undefined}
      disabled={disabled || readonly}
      options={enumOptions.map((o, i) => ({ value: String(i), label: o.label, title: o.label, disabled: off.has(o.value) }))}
      onChange={(index?: string | string[]) => onChange(index === undefined || index === null ? emptyValue : enumOptionsValueForIndex(index, enumOptions, emptyValue))}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
    />
  );
}

/** A `YYYY-MM-DD` date; typed dates are not taken (no keyboard on phones). */
export function DateWidget({ id, value, disabled, readonly, onChange }: WidgetProps) {
  return (
    <DatePicker
      id={id}
      style={WIDE}
      value={value ? dayjs(value) : null}
      disabled={disabled || readonly}
      inputReadOnly
      onChange={(d) => onChange(d ? d.format(DAY) : undefined)}
    />
  );
}

/** Two `YYYY-MM-DD` dates, from and to. */
export function DateRangeWidget({ id, value, disabled, readonly, onChange }: WidgetProps) {
  const range = Array.isArray(value) && value.length === 2 ? ([dayjs(value[0]), dayjs(value[1])] as [dayjs.Dayjs, dayjs.Dayjs]) : null;
  return (
    <DatePicker.RangePicker
      id={id}
      style={WIDE}
      value={range}
      disabled={disabled || readonly}
      inputReadOnly
      onChange={(dates) => onChange(dates && dates[0] && dates[1] ? [dates[0].format(DAY), dates[1].format(DAY)] : undefined)}
    />
  );
}

interface StoredFile {
  fileId: string;
  name: string;
  size: number;
  url?: string;
}

const IMAGE_NAME = /\.(jpe?g|png)$/i;
const IMAGE_MAX_BYTES = 2 * 1024 * 1024;

/** Files or pictures uploaded through the files plugin, kept as `{fileId, name, size, url}`; pictures are JPEG
 * or PNG of at most 2 MB (the server checks the same). */
export function UploadWidget({ value, disabled, readonly, options, onChange }: WidgetProps) {
  const t = useT('forms');
  const image = Boolean(options.image);
  const files: StoredFile[] = Array.isArray(value) ? value : [];
  const off = disabled || readonly;
  return (
    <Upload
      disabled={off}
      listType={image ? 'picture' : 'text'}
      accept={image ? '.jpg,.jpeg,.png' : undefined}
      fileList={files.map((f, i) => ({ uid: String(f.fileId || i), name: f.name, status: 'done' as const, url: f.url, response: f }))}
      beforeUpload={(file) => {
        if (image && (!IMAGE_NAME.test(file.name) || file.size > IMAGE_MAX_BYTES)) return Upload.LIST_IGNORE;
        return true;
      }}
      customRequest={async ({ file, onSuccess, onError }) => {
        try {
          const f = file as File;
          const res: any = await upload('file/iot-base-attachment/single/file-upload', f);
          const item: StoredFile = { fileId: String(res.fileId), name: f.name, size: f.size, url: res.filePath };
          onChange([...files, item]);
          onSuccess?.(item);
        } catch (e) {
          onError?.(e as Error);
        }
      }}
      onRemove={(f) => onChange(files.filter((v) => String(v.fileId) !== f.uid))}
    >
      <Button disabled={off}>{t(image ? 'web.uploadImage' : 'web.uploadFile')}</Button>
    </Upload>
  );
}

/** The tenant's members matching a search, asked again as the search changes (the last answer wins). */
function usePeople(): [Person[], boolean, (keyword: string) => void] {
  const [people, setPeople] = useState<Person[]>([]);
  const [loading, setLoading] = useState(false);
  const asked = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const search = (keyword: string) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const n = ++asked.current;
      setLoading(true);
      formsApi.people(keyword).then(
        (found) => { if (n === asked.current) { setPeople(found); setLoading(false); } },
        () => { if (n === asked.current) { setPeople([]); setLoading(false); } },
      );
    }, 200);
  };
  return [people, loading, search];
}

/** A user or tenant member picked among the tenant's members (searched on the server), kept as `{id, name}`;
 * the server checks the id is a member and keeps the directory's name. */
export function PersonField({ fieldPathId, formData, disabled, readonly, onChange }: FieldProps) {
  const t = useT('forms');
  const [people, loading, search] = usePeople();
  const picked = formData && typeof formData === 'object' && formData.id !== undefined && formData.id !== null ? (formData as { id: number; name?: string }) : null;
  const options = people.map((p) => ({ value: p.id, label: p.department ? `${p.name} · ${p.department}` : p.name, name: p.name }));
  if (picked && !options.some((o) => o.value === picked.id)) options.unshift({ value: picked.id, label: String(picked.name ?? picked.id), name: String(picked.name ?? '') });
  return (
    <Select
      id={fieldPathId.$id}
      style={WIDE}
      allowClear
      placeholder={t('web.pickPerson')}
      value={picked ? picked.id : undefined}
      disabled={disabled || readonly}
      loading={loading}
      showSearch={{ filterOption: false, onSearch: search }}
      onOpenChange={(open) => { if (open) search(''); }}
      notFoundContent={loading ? t('web.searching') : t('web.nobody')}
      options={options}
      onChange={(value, option) => {
        const chosen = Array.isArray(option) ? option[0] : option;
        onChange(value === undefined || value === null ? undefined : { id: value, name: chosen?.name ?? '' }, fieldPathId.path);
      }}
    />
  );
}

/** A section heading or a divider line. */
export function LayoutField({ schema, uiSchema, name }: FieldProps) {
  if (kindOf(schema) === 'divider') return <Divider />;
  return <Typography.Title level={5}>{String(uiSchema?.['ui:title'] || schema.title || name)}</Typography.Title>;
}
