import { request, upload } from '@atrium/sdk';

const FILE = 'file/iot-base-attachment';
const ICONS = 'base/base-custom-icon';

/** What `single/file-upload` answers (spec 7.3: data.filePath and data.fileId). */
export interface Uploaded {
  fileId: number;
  filePath: string;
  sourceFileName: string;
  contentType: string;
  size: number;
  /** A short-lived address to show the file at once. */
  url: string;
}

/** An uploaded document (spec 3.8). */
export interface Attachment {
  fileId: number;
  filePath: string;
  sourceFileName: string;
  creationName: string;
  creationDate: string;
  uploadDate: string;
  contentType: string;
  size: number;
  previewUrl: string | null;
  canDelete: boolean;
  /** 'sheet' when the document editor opens the file. */
  editorKind: 'sheet' | null;
  /** The file this one is an edited version of. */
  previousId: number | null;
}

/** A custom icon (spec 3.8), with the server's verdict on whether this user may change it. */
export interface CustomIcon {
  ciId: number;
  iconName: string;
  iconUrl: string;
  iconSrc: string;
  iconFormat: string;
  tenantId: number;
  createdBy: number | null;
  fileId: number;
  canEdit: boolean;
}

export function uploadFile(file: File, funcCode = ''): Promise<Uploaded> {
  return upload<Uploaded>(`${FILE}/single/file-upload${funcCode ? `?funcCode=${encodeURIComponent(funcCode)}` : ''}`, file);
}

export function deleteFile(id: number): Promise<void> {
  return request<void>(`${FILE}/delete-id`, { params: { id } });
}

export function viewUrl(url: string): Promise<string> {
  return request<string>(`${FILE}/getUrl`, { params: { url } });
}

export function downloadUrl(fileName: string, oldUrl: string): Promise<string> {
  return request<string>(`${FILE}/getDownUrlByName`, { params: { fileName, oldUrl } });
}

export function findFiles(pageNum: number, pageSize: number, keyword = '', funcCode = ''): Promise<{ list: Attachment[]; total: number }> {
  return request(`${FILE}/find-list`, { params: { pageNum, pageSize, keyword, funcCode } });
}

export function allIcons(): Promise<CustomIcon[]> {
  return request<CustomIcon[]>(`${ICONS}/get-all`);
}

/** Saved when there is no ciId, updated when there is one (spec 4). */
export function saveIcon(icon: { ciId?: number; iconName: string; iconUrl: string; iconFormat: string; fileId: number; tenantId?: number }): Promise<CustomIcon> {
  return request<CustomIcon>(`${ICONS}/${icon.ciId ? 'update' : 'save'}`, { method: 'POST', data: icon });
}

export function deleteIcon(ciId: number): Promise<void> {
  return request<void>(`${ICONS}/delete`, { params: { ciId } });
}
