import { request, session } from '@atrium/sdk';

/** A watermark as the server answers it (spec 3); `content` has the user's fields filled in. */
export interface Watermark {
  ffwId: string;
  ffwFunctionCode: string;
  systemCode: string;
  tenantId: string;
  content: string;
  fwContent: string;
  fwType: 'dynamic' | 'static';
  fwFont: string;
  fwFontSize: number;
  fwColor: string;
  fwRotationAngle: number;
  fwTransparent: number;
  isTakeEffect: number;
  isView: number;
}

export type WatermarkInput = Omit<Watermark, 'ffwId' | 'tenantId' | 'content'> & { ffwId?: string };

/** The watermark for the current system (and the whole shell: no function code), or null. */
export function currentWatermark(functionCode = ''): Promise<Watermark | null> {
  return request<Watermark | null>('watermark/iotBaseFuncWaterController/get-system-watermark', {
    params: { ffwFunctionCode: functionCode, flag: 1, tenantId: session.profile.tenantId, systemCode: session.getSystemCode() },
    silent: true,
  });
}

export function listSettings(): Promise<{ list: Watermark[]; placeholders: string[] }> {
  return request('watermark/admin/settings');
}

export function saveSetting(body: WatermarkInput): Promise<Watermark> {
  return request('watermark/admin/save', { method: 'POST', data: body });
}

export function deleteSetting(ffwId: string): Promise<void> {
  return request('watermark/admin/delete', { method: 'POST', data: { ffwId } });
}

export function previewText(fwType: string, fwContent: string): Promise<{ content: string }> {
  return request('watermark/admin/preview', { method: 'POST', data: { fwType, fwContent }, silent: true });
}

/** What a preview names: an attachment's id, or its own address on this platform. */
export interface PreviewFile {
  fileId?: number;
  url?: string;
  funcCode?: string;
}

/** The file with the function's watermark stamped into it on the server (an image, or a PDF). */
export function previewFile(file: PreviewFile): Promise<Blob> {
  return request<Blob>('watermark/iotBaseFuncWaterController/preview-file', {
    method: 'POST', data: file, wrap: false, blob: true, timeout: 120_000,
  });
}
