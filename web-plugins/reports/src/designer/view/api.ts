/** The view editor's calls: draw an unsaved definition (calcData) and save it. */
import { request } from '@atrium/sdk';
import { SERVICE } from '../../api';
import type { ChartView } from '../../model/types';

export interface CalcBody {
  view: ChartView;
  queryFrom: 'panel';
  cache: false;
  resultMode: string;
  resultCount: number;
  pageSize?: number;
  goPage?: number;
}

export const viewApi = {
  /** Silent: the preview shows the server's message in place of the chart. */
  calcData: (body: CalcBody, signal?: AbortSignal) =>
    request<ChartView>(`${SERVICE}/chart/view/calcData/${encodeURIComponent(body.view.id || 'new')}`, { method: 'POST', data: body, silent: true, signal }),
  save: (view: ChartView) => request<ChartView>(`${SERVICE}/chart/view/save`, { method: 'POST', data: view }),
};
