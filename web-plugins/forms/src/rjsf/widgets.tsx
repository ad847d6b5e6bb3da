/**
 * The widgets and fields react-jsonschema-form's antd theme does not have: numbers checked against the
 * schema rather than clamped, dates and date ranges, people, file and picture uploads through the files plugin,
 * and the section and divider that only lay the form out.
 */
import dayjs from 'dayjs';
import { Button, DatePicker, Divider, Input, InputNumber, Typography, Upload } from 'antd';
import type { FieldProps, WidgetProps } from '@rjsf/utils';
import { upload, useT } from '@atrium/sdk';
import { kindOf } from '../schemaInfo';

const WIDE = { width: '100%' };
const DAY = 'YYYY-MM-DD';

/** A number; out-of-range values stay as typed so the field's message says what the range is. */
export function NumberWidget({ id, value, disabled, readonly, schema, onChange, onBlur, onFocus }: WidgetProps) {
  return (
    <InputNumber
      id={id}
      style={WIDE}
      value={value ?? null}
      disabled={disabled || readonly}
      precision={schema.type === 'integer' ? 0 : undefined}
      onChange={(v) => onChange(v === null ? undefined : v)}
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

/** A user or tenant member, typed by name and kept as `{name}`. */
export function PersonField({ fieldPathId, formData, disabled, readonly, onChange }: FieldProps) {
  const name = formData && typeof formData === 'object' ? String(formData.name ?? '') : '';
  return (
    <Input
      id={fieldPathId.$id}
      value={name}
      disabled={disabled || readonly}
      onChange={(e) => onChange(e.target.value ? { name: e.target.value } : undefined, fieldPathId.path)}
    />
  );
}

/** A section heading or a divider line. */
export function LayoutField({ schema, uiSchema, name }: FieldProps) {
  if (kindOf(schema) === 'divider') return <Divider />;
  return <Typography.Title level={5}>{String(uiSchema?.['ui:title'] || schema.title || name)}</Typography.Title>;
}
