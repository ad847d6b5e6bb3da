import { request } from '@atrium/sdk';
import type { Attachment } from '../api';

/** What the editor opens: Univer's workbook data (`IWorkbookData`) for a spreadsheet (`sheet`), its
 * document data (`IDocumentData`) for a Word document (`doc`). A Word document holding what the editor
 * cannot keep (tables, pictures, ...: `readOnlyReasons`, keys of `files:editor.parts`) is `readOnly`: it is
 * shown but never saved from the editor. */
export interface EditorFile {
  fileId: number;
  fileName: string;
  /** The file's stable address (for a download link). */
  filePath: string;
  kind: 'sheet' | 'doc';
  previousId: number | null;
  readOnly: boolean;
  readOnlyReasons: string[];
  data: Record<string, unknown>;
}

/** The editor's side of a file, whichever kind it is. */
export interface MountedEditor {
  /** The content as it is now, the edit in progress included. */
  snapshot(): Promise<unknown>;
  dispose(): void;
  /** Univer's facade, for scripting the page (the browser tests use it). */
  api: unknown;
}

/** Where the editor's requests go. The frame's `server` parameter is honoured only when it names this
 * site (its path, e.g. `/api`, becomes the base); any other origin is ignored, so the page never sends
 * the session's headers elsewhere. */
export interface ApiBase {
  /** Prefix of `file/...` paths: a service key path (`file/...`) or an absolute path on this site. */
  prefix: string;
  /** The `server` value that was ignored, when one was. */
  ignored: string | null;
}

export function apiBase(server: string | null, origin: string = window.location.origin): ApiBase {
  const value = (server || '').trim();
  if (!value) return { prefix: '', ignored: null };
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return { prefix: '', ignored: value };
  }
  if (url.origin !== origin || (url.protocol !== 'http:' && url.protocol !== 'https:')) return { prefix: '', ignored: value };
  const path = url.pathname.replace(/\/+$/, '');
  return { prefix: `${path && path !== '' ? path : '/api'}/`, ignored: null };
}

const FILE = 'file/iot-base-attachment';
const EDITOR = `${FILE}/editor`;

export function openFile(base: ApiBase, id: number): Promise<EditorFile> {
  return request<EditorFile>(`${base.prefix}${EDITOR}/open`, { params: { id }, silent: true });
}

/** Stores the edited content as a new version of `id`; answers the new attachment. */
export function saveFile(base: ApiBase, id: number, kind: EditorFile['kind'], content: unknown): Promise<Attachment> {
  const data = kind === 'sheet' ? { id, workbook: content } : { id, document: content };
  return request<Attachment>(`${base.prefix}${EDITOR}/save`, { method: 'POST', data, silent: true, timeout: 120_000 });
}

/** A short-lived address that downloads the file under its own name. */
export function downloadAddress(base: ApiBase, file: EditorFile): Promise<string> {
  return request<string>(`${base.prefix}${FILE}/getDownUrlByName`, {
    params: { fileName: file.fileName, oldUrl: file.filePath },
  });
}

/** What a read-only document holds that the editor cannot keep, named in the user's language. */
export function keptOutParts(t: (key: string) => string, reasons: string[]): string {
  return reasons.map((key) => t(`editor.parts.${key}`)).join(t('editor.list_separator'));
}
