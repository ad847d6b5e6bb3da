import { request } from '@atrium/sdk';

export type Json = Record<string, any>;

export interface FormInfo {
  formId: string;
  code: string;
  name: Record<string, string>;
  title: string;
  latestVersion: number;
  publishedVersion: number | null;
  allowEdit: boolean;
  updatedAt: string;
}

export interface FormVersion extends FormInfo {
  version: number;
  schema: Json;
  uiSchema: Json;
  layouts: Record<string, { columns?: number }>;
  /** the layout drawn: the one a link names, else the form's own (L1) */
  layout?: { columns?: number } | null;
  versions?: { version: number; createdAt: string }[];
  /** the items of the dictionaries its choice fields take (`x-dict`), in the request's language */
  dictionaries?: Dictionaries;
}

/** Dictionary type to its items, `value` the item's code and `label` its name. */
export type Dictionaries = Record<string, { value: string; label: string }[]>;

/** A member of the current tenant, as the user and member pickers offer them. */
export interface Person {
  id: number;
  name: string;
  account: string;
  department?: string;
}

export interface SubmissionRow {
  submissionId: string;
  formId: string;
  version: number;
  status: 'draft' | 'submitted';
  data: Json;
  createdBy: string;
  createdAt: string;
  /** whether the signed-in user may edit it (administrators, a draft, or a form that allows editing) */
  canEdit?: boolean;
}

/** A submission with the schema version it was made on and the layout that version is drawn in. */
export interface SubmissionDetail extends SubmissionRow {
  schema: Json;
  layout?: { columns?: number } | null;
  dictionaries?: Dictionaries;
}

export interface Page<T> {
  list: T[];
  total: number;
  /** false: there are more than `total` (the server stops counting there) */
  totalExact?: boolean;
}

/** where a published form's menu goes (`parentId` absent: top level; `name` empty: the form's names) */
export interface MenuWish { systemCode: string; parentId?: string; name?: string }
export interface MenuNode { value: string; title: string; children: MenuNode[] }
export interface MenuSystem { systemCode: string; systemName: string; menus: MenuNode[] }
export interface PublishedMenu { menuId: string; menuName: string; systemCode: string; systemName: string; parentId: string | null; parentName: string | null }

export const formsApi = {
  list: (keyword = '', pageNum = 1, pageSize = 20) => request<Page<FormInfo>>('form/design/list', { data: { keyword, pageNum, pageSize } }),
  /** a version for the designer and the preview (`silent`: the caller shows a failure itself) */
  detail: (formId: string, version?: number, silent = false) => request<FormVersion>('form/design/detail', { params: { formId, version }, silent }),
  save: (body: Json) => request<FormInfo & { version: number }>('form/design/save', { data: body }),
  publish: (formId: string, version?: number, menu?: MenuWish) => request<FormInfo & { menu?: PublishedMenu }>('form/design/publish', { data: { formId, version, menu } }),
  /** the tenant's systems with their menu trees, for the publish dialog (administrators) */
  menuOptions: () => request<{ systems: MenuSystem[] }>('form/design/menu-options'),
  remove: (formId: string) => request<null>('form/design/delete', { data: { formId } }),
  render: (code: string, layoutId = '') => request<FormVersion>(`form/render/${encodeURIComponent(code)}`, { params: { layoutId } }),
  count: () => request<{ forms: number; published: number; submissions: number }>('form/count'),
  submit: (formId: string, data: Json, draft: boolean) => request<SubmissionRow>('form/submission/save', { data: { formId, data, draft }, silent: true }),
  update: (submissionId: string, data: Json, draft: boolean) => request<SubmissionRow>('form/submission/update', { data: { submissionId, data, draft }, silent: true }),
  submissions: (body: Json) => request<Page<SubmissionRow>>('form/submission/list', { data: body }),
  submission: (submissionId: string) => request<SubmissionDetail>('form/submission/detail', { params: { submissionId } }),
  people: (keyword = '', limit = 20) => request<Person[]>('form/people', { params: { keyword, limit }, silent: true }),
  /** the platform's dictionary types (the kernel's administration API, for the designer) */
  dictionaryTypes: () => request<{ types: string[] }>('base/admin/dictionaries', { params: { dicType: '' }, silent: true }),
  removeSubmissions: (ids: number[]) => request<{ deleted: number }>('form/submission/delete', { data: { ids } }),
};

export const EXPORT_URL = 'api/form/submission/exportData';

/** A field's label in the current locale (x-i18n, then title, then its key). */
export function fieldLabel(prop: Json, key: string, locale: string): string {
  return (prop?.['x-i18n'] || {})[locale] || prop?.title || (prop?.['x-i18n'] || {})['en-us'] || key;
}

export function formTitle(form: { name?: Record<string, string>; code?: string }, locale: string): string {
  const n = form.name || {};
  return n[locale] || n['zh-cn'] || n['en-us'] || Object.values(n)[0] || form.code || '';
}
