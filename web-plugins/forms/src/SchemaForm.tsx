/**
 * Renders a form's JSON Schema with react-jsonschema-form and its antd theme, and checks it in the browser
 * against the same schema (required, conditional required, length, range, pattern, choices, item counts)
 * with the server's messages; the server checks again and its field messages are shown on the fields.
 *
 * This module and rjsf load only with the pages that draw a form (they are loaded lazily).
 */
import { useCallback, useImperativeHandle, useMemo, useRef, useState, type Ref } from 'react';
import { Form as AntForm } from 'antd';
import RjsfForm from '@rjsf/core';
import { deepEquals, type ErrorSchema, type RegistryFieldsType, type RegistryWidgetsType, type RJSFValidationError, type TemplatesType } from '@rjsf/utils';
import BaseInputTemplate from '@rjsf/antd/lib/templates/BaseInputTemplate/index.js';
import CheckboxesWidget from '@rjsf/antd/lib/widgets/CheckboxesWidget/index.js';
import CheckboxWidget from '@rjsf/antd/lib/widgets/CheckboxWidget/index.js';
import RadioWidget from '@rjsf/antd/lib/widgets/RadioWidget/index.js';
import TextareaWidget from '@rjsf/antd/lib/widgets/TextareaWidget/index.js';
import { useT } from '@atrium/sdk';
import type { Json } from './api';
import { kindOf, NO_DATA, visible } from './schemaInfo';
import { localizeErrors } from './rjsf/messages';
import { ArrayFieldItemTemplate, ArrayFieldTemplate, FieldTemplate, NoSubmitButton, ObjectFieldTemplate, type FormContext } from './rjsf/templates';
import { uiSchemaFor } from './rjsf/uiSchema';
import { DateRangeWidget, DateWidget, LayoutField, NumberWidget, PersonField, SelectWidget, UploadWidget } from './rjsf/widgets';
import { formValidator } from './validator';

// The antd theme's pieces one by one: its index also brings widgets the forms never draw (sliders, alternative
// date pickers) and icon buttons, whose antd components and icons the page would then load. Its select is
// replaced by one without the empty option it puts before the choices.
const WIDGETS: RegistryWidgetsType = {
  CheckboxesWidget,
  CheckboxWidget,
  DateWidget,
  RadioWidget,
  SelectWidget,
  TextareaWidget,
  number: NumberWidget,
  daterange: DateRangeWidget,
  upload: UploadWidget,
};
const FIELDS: RegistryFieldsType = { person: PersonField, layout: LayoutField };
const TEMPLATES: Partial<TemplatesType> = {
  BaseInputTemplate,
  FieldTemplate,
  ObjectFieldTemplate,
  ArrayFieldTemplate,
  ArrayFieldItemTemplate,
  ButtonTemplates: { SubmitButton: NoSubmitButton } as TemplatesType['ButtonTemplates'],
};
/** Failed checks are shown on the fields; rjsf would also log them. */
const IGNORE = () => undefined;
const DEFAULTS = { arrayMinItems: { populate: 'never' as const }, emptyObjectFields: 'skipEmptyDefaults' as const };

/** What a page does with a drawn form. */
export interface SchemaFormHandle {
  /** Checks the values in the browser, showing the messages on the fields; answers whether they pass. */
  validate(): boolean;
  /** The values as the schema describes them (see `toData`). */
  data(): Json;
  /** Back to empty, messages cleared. */
  reset(): void;
  /** Puts the server's field messages (`data.errors`) on the fields; answers whether any was placed. */
  showServerErrors(error: unknown): boolean;
}

export interface SchemaFormProps {
  schema: Json;
  /** the layout's columns */
  columns?: number;
  initial?: Json;
  disabled?: boolean;
  ref?: Ref<SchemaFormHandle>;
}

/** The values to send: layout-only and hidden fields and empty values left out, files as stored, sub-table
 * rows without empty ones. */
export function toData(schema: Json, values: Json): Json {
  const out: Json = {};
  for (const [key, prop] of Object.entries<Json>(schema.properties || {})) {
    const kind = kindOf(prop);
    let v = values?.[key];
    if (NO_DATA.has(kind) || v === undefined || v === null || v === '' || !visible(prop, values)) continue;
    if (kind === 'file' || kind === 'image') v = (v as any[]).map((f: any) => ({ fileId: f.fileId, name: f.name, size: f.size, url: f.url }));
    if (kind === 'table' && Array.isArray(v)) v = v.filter(Boolean);
    if ((kind === 'user' || kind === 'member') && (v?.id === undefined || v?.id === null)) continue;
    out[key] = v;
  }
  return out;
}

export function SchemaForm({ schema, columns = 1, initial, disabled = false, ref }: SchemaFormProps) {
  const t = useT('forms');
  const locale = t.locale;
  const [source, setSource] = useState({ schema, initial });
  const [values, setValues] = useState<Json>(() => ({ ...initial }));
  const [generation, setGeneration] = useState(0);
  const [serverErrors, setServerErrors] = useState<ErrorSchema | undefined>();
  const [checked, setChecked] = useState(false);
  if (source.schema !== schema || source.initial !== initial) {
    setSource({ schema, initial });
    setValues({ ...initial });
    setServerErrors(undefined);
    setChecked(false);
    setGeneration((g) => g + 1);
  }
  const latest = useRef(values);
  latest.current = values;
  const form = useRef<RjsfForm>(null);
  const validator = useMemo(() => formValidator(schema), [schema]);
  const uiSchema = useMemo(() => uiSchemaFor(schema, locale), [schema, locale]);
  const context = useMemo<FormContext>(() => ({ columns, t }), [columns, t]);
  const transformErrors = useCallback(
    (errors: RJSFValidationError[]) => localizeErrors(errors, schema, latest.current, t, locale),
    [schema, t, locale],
  );
  useImperativeHandle(
    ref,
    () => ({
      validate: () => {
        setChecked(true);
        return form.current?.validateForm() ?? false;
      },
      data: () => toData(schema, latest.current),
      reset: () => {
        setValues({});
        setServerErrors(undefined);
        setChecked(false);
        setGeneration((g) => g + 1);
      },
      showServerErrors: (error: any) => {
        const errors: { field: string; message: string }[] = error?.data?.errors || [];
        const placed = errors.filter((e) => e.field && schema.properties?.[e.field]);
        setServerErrors(placed.length ? (Object.fromEntries(placed.map((e) => [e.field, { __errors: [e.message] }])) as ErrorSchema) : undefined);
        return placed.length > 0;
      },
    }),
    [schema],
  );
  return (
    <div data-testid="schema-form">
      <AntForm component={false} layout="vertical" disabled={disabled}>
        <RjsfForm
          key={generation}
          ref={form}
          schema={schema}
          uiSchema={uiSchema}
          formData={values}
          validator={validator}
          widgets={WIDGETS}
          fields={FIELDS}
          templates={TEMPLATES}
          formContext={context}
          disabled={disabled}
          transformErrors={transformErrors}
          extraErrors={serverErrors}
          liveValidate={checked ? 'onChange' : undefined}
          showErrorList={false}
          noHtml5Validate
          onError={IGNORE}
          experimental_defaultFormStateBehavior={DEFAULTS}
          onChange={(e) => {
            if (!deepEquals(e.formData, latest.current)) setServerErrors(undefined);
            latest.current = e.formData;
            setValues(e.formData);
          }}
        />
      </AntForm>
    </div>
  );
}
