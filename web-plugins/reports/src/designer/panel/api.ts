/** The panel designer's calls to the dyreport service (plugins/reports/README.md) and the files upload. */
import { request, upload } from '@atrium/sdk';
import { SERVICE } from '../../api';
import type { ChartView } from '../../model/types';
import type { Dataset } from '../data/types';
import type { Draft, Grant, JumpInfoEntry, LinkageTarget, PanelListItem, PanelPublic, PanelVersion, ReportSettings, ShareLink, ShareLinkUpdate, Subjects } from './types';

const path = (p: string) => `${SERVICE}/${p}`;
const id = (v: string) => encodeURIComponent(v);

export interface DraftBody {
  id: string;
  name?: string;
  panelData: string;
  panelStyle: string;
}

export interface JumpSetItem {
  sourceFieldId: string;
  linkType: 'inner' | 'other';
  jumpType: '_self' | '_blank';
  targetPanelId: string | null;
  content: string;
  attachParams: boolean;
  checked: boolean;
  targetViewInfoList: { targetViewId: string; targetFieldId: string }[];
}

export interface UploadedFile {
  fileId: string;
  filePath: string;
  url?: string;
}

export const designerApi = {
  panels: () => request<PanelListItem[]>(path('panel/list'), { method: 'GET', silent: true }),
  createPanel: (name: string) => request<{ id: string; name: string }>(path('panel/save'), { method: 'POST', data: { name, panelData: '[]', panelStyle: '{}' } }),
  draft: (panelId: string) => request<Draft>(path(`panel/draft/${id(panelId)}`), { method: 'GET', silent: true }),
  /** Silent: the page shows the server's message where the save was asked. */
  saveDraft: (body: DraftBody) => request<Draft>(path('panel/saveDraft'), { method: 'POST', data: body, silent: true }),
  publish: (panelId: string, note: string) => request<{ version: number; publishTime: number }>(path('panel/publish'), { method: 'POST', data: { id: panelId, note: note || undefined }, silent: true }),
  versions: (panelId: string) => request<PanelVersion[]>(path(`panel/versions/${id(panelId)}`), { method: 'GET', silent: true }),
  rollback: (panelId: string, version: number) => request<unknown>(path('panel/rollback'), { method: 'POST', data: { id: panelId, version }, silent: true }),

  views: (panelId: string) => request<ChartView[]>(path(`chart/view/listByPanel/${id(panelId)}`), { method: 'GET', silent: true }),
  deleteView: (viewId: string) => request<boolean>(path(`chart/view/delete/${id(viewId)}`), { method: 'POST', data: {}, silent: true }),
  dataset: (datasetId: string) => request<Dataset>(path(`dataset/get/${id(datasetId)}`), { method: 'GET', silent: true }),
  fieldValues: (fieldIds: string[]) => request<unknown[]>(path('dataset/field/multFieldValues'), { method: 'POST', data: { fieldIds }, silent: true }),

  linkageGather: (panelId: string, sourceViewId: string) => request<LinkageTarget[]>(path('linkage/getViewLinkageGather'), { method: 'POST', data: { panelId, sourceViewId }, silent: true }),
  saveLinkage: (panelId: string, sourceViewId: string, linkageInfo: LinkageTarget[]) =>
    request<unknown>(path('linkage/saveLinkage'), { method: 'POST', data: { panelId, sourceViewId, linkageInfo }, silent: true }),
  jumps: (panelId: string) => request<{ baseJumpInfoMap: Record<string, JumpInfoEntry> }>(path(`linkJump/queryPanelJumpInfo/${id(panelId)}`), { method: 'GET', silent: true }),
  saveJumps: (panelId: string, sourceViewId: string, linkJumpInfoArray: JumpSetItem[]) =>
    request<unknown>(path('linkJump/updateJumpSet'), { method: 'POST', data: { panelId, sourceViewId, linkJumpInfoArray }, silent: true }),

  shareLink: (panelId: string) => request<ShareLink>(path(`api/link/currentGenerator/${id(panelId)}`), { method: 'POST', data: {}, silent: true }),
  /** With `pwd`, the link is turned on behind that password (needed when the tenant requires one). */
  enableShareLink: (panelId: string, pwd?: string) => request<ShareLink>(path(`api/link/enable/${id(panelId)}`), { method: 'POST', data: pwd ? { pwd } : {}, silent: true }),
  saveReportSettings: (body: ReportSettings) => request<ReportSettings>(path('settings'), { method: 'POST', data: body, silent: true }),
  updateShareLink: (body: ShareLinkUpdate) => request<ShareLink>(path('api/link/update'), { method: 'POST', data: body, silent: true }),
  rotateShareLink: (linkId: string) => request<ShareLink>(path('api/link/rotate'), { method: 'POST', data: { id: linkId }, silent: true }),

  grants: (panelId: string) => request<{ grants: Grant[] } | Grant[]>(path(`panel/grants/${id(panelId)}`), { method: 'GET', silent: true }),
  saveGrants: (panelId: string, grants: Grant[]) => request<unknown>(path(`panel/grants/${id(panelId)}`), { method: 'POST', data: { grants }, silent: true }),
  /** The panel as viewers read it; `proxy` is its proxy user's id. */
  panel: (panelId: string) => request<PanelPublic>(path(`panel/findOne/${id(panelId)}`), { method: 'GET', silent: true }),
  /** Silent: the dialog shows the server's message. */
  setProxy: (panelId: string, userId: number | null) => request<PanelPublic>(path(`panel/proxy/${id(panelId)}`), { method: 'POST', data: { userId }, silent: true }),
  subjects: (keyword: string) => request<Subjects>(path('panel/subjects'), { method: 'GET', params: { keyword }, silent: true }),

  /** Spec 7.3: the files plugin's single upload. */
  uploadPicture: (file: File) => upload<UploadedFile>('file/iot-base-attachment/single/file-upload', file, {}, { params: { funcCode: 'dyreport' }, silent: true }),
};
