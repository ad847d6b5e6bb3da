/** Pure helpers of the dataset editor: the fields a new dataset keeps, field edits, sync state, Excel files. */
import type { DatasetField, DatasetSaveBody, DraftField, FieldPatch, SyncState } from './types';

/** A draft column as the creator edits it before saving. */
export interface DraftColumn extends DraftField {
  checked: boolean;
}

export function draftColumns(fields: DraftField[]): DraftColumn[] {
  return fields.map((f) => ({ ...f, checked: true }));
}

/** The `fields` of dataset/save for a new dataset: every detected column, ticked or not, as edited. */
export function fieldsForSave(columns: DraftColumn[]): NonNullable<DatasetSaveBody['fields']> {
  return columns.map((c) => ({ originName: c.originName, name: c.name.trim() || c.originName, type: c.type, role: c.role, checked: c.checked }));
}

/** Only what changed between the stored fields and the edited ones (calculated fields have their own call). */
export function fieldPatches(stored: DatasetField[], edited: DatasetField[]): FieldPatch[] {
  const before = new Map(stored.map((f) => [f.id, f]));
  const out: FieldPatch[] = [];
  for (const f of edited) {
    const old = before.get(f.id);
    if (!old) continue;
    const patch: FieldPatch = { id: f.id };
    if (f.name.trim() && f.name.trim() !== old.name) patch.name = f.name.trim();
    if (f.type !== old.type) patch.type = f.type;
    if (f.role !== old.role) patch.role = f.role;
    if ((f.checked ?? true) !== (old.checked ?? true)) patch.checked = f.checked ?? true;
    if (Object.keys(patch).length > 1) out.push(patch);
  }
  return out;
}

export function isSyncRunning(sync?: SyncState | null): boolean {
  return sync?.status === 'running';
}

/** xls or xlsx only (spec 5: other types are refused). */
export function isExcelFile(name: string): boolean {
  return /\.xlsx?$/i.test(name.trim());
}

/** The dataset name proposed from a table or file name. */
export function suggestedName(source: string): string {
  return source.replace(/\.[^.]+$/, '').replace(/^.*[\\/]/, '').slice(0, 100);
}

/** Whether a column name reads as an identifier (`id`, `order_id`, `orderId`, `订单编号`), as the server guesses it. */
export function isIdentifier(name: string): boolean {
  const n = name.trim();
  return /(?:^|[^a-z])id$/i.test(n) || /[a-z0-9](?:Id|ID)$/.test(n) || /(?:编号|編號|序号|序號)$/.test(n);
}

/** The role a column takes by default: numbers are quotas, the rest dimensions; identifiers are dimensions. */
export function defaultRole(type: DraftField['type'], name = ''): DraftField['role'] {
  if (isIdentifier(name)) return 'dimension';
  return type === 'integer' || type === 'float' ? 'quota' : 'dimension';
}
