/** The getData body of a view (spec 7.1) from the panel's state and the view's own page, sort and size. */
import type { Access, DataBody } from '../api';
import { filtersForView } from '../model/filters';
import type { DrillItem, FilterItem } from '../model/types';
import type { TableSort } from './TableView';
import type { PanelState } from './store';

export interface ViewQuery {
  page: number;
  sort: TableSort | null;
  /** The table page size a view's style sets, if any. */
  pageSize?: number;
  /** The view's result settings (spec 7.1), once its definition is known. */
  resultMode?: string;
  resultCount?: number;
}

export const FIRST_QUERY: ViewQuery = { page: 1, sort: null };

export function dataBody(
  viewId: string,
  state: Pick<PanelState, 'applied' | 'linkage' | 'track'>,
  drill: DrillItem[],
  query: ViewQuery,
  access: Access | undefined,
): DataBody {
  const b: DataBody = {
    filter: filtersForView(Object.values(state.applied).flat() as FilterItem[], viewId),
    linkageFilters: state.linkage[viewId]?.filters || [],
    urlFilter: filtersForView(state.track, viewId),
    drill: drill.map((d) => ({ fieldId: d.fieldId, value: d.value })),
    queryFrom: 'panel',
    cache: true,
    goPage: query.page,
  };
  if (query.pageSize) b.pageSize = query.pageSize;
  if (query.resultMode) b.resultMode = query.resultMode;
  if (query.resultCount) b.resultCount = query.resultCount;
  const { sort } = query;
  if (sort && sort.order !== 'none') b.sort = [{ fieldId: sort.fieldId || '', key: sort.key, sort: sort.order }];
  if (access?.user !== undefined && access?.user !== null) b.user = access.user;
  return b;
}

/** What the answer depends on: the body without the view's own result settings, which the server reads from
 * the view when a body leaves them out (the panel's first calls, made before any definition is known), so
 * their arrival with the definition asks nothing again. */
export function dataKey(body: DataBody): string {
  const { resultMode: _mode, resultCount: _count, ...rest } = body;
  return JSON.stringify(rest);
}
