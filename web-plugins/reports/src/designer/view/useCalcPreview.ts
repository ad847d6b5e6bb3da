/**
 * The preview's data: calcData for the unsaved definition, asked again ~300 ms after the last change of
 * what the data depends on (fields, kind, dataset, result settings). Style changes redraw without a call.
 */
import { useEffect, useEffectEvent, useMemo, useState } from 'react';
import type { ChartView } from '../../model/types';
import { isTableKind } from './kinds';
import { isDrawable, viewFromDraft, type ViewDraft } from './model';
import { viewApi } from './api';
import { getIn } from './styleModel';

export const PREVIEW_DEBOUNCE_MS = 300;

export interface PreviewState {
  result: ChartView | null;
  error: string | null;
  loading: boolean;
}

/** The parts of a draft the data depends on (the key of a new calcData call). */
export function dataKey(d: ViewDraft): string {
  const { tableId, type, render, xaxis, xaxisExt, yaxis, yaxisExt, extBubble, drillFields, customFilter, resultMode, resultCount, pageSize, panelId, id } = d;
  return JSON.stringify({ tableId, type, render, xaxis, xaxisExt, yaxis, yaxisExt, extBubble, drillFields, customFilter, resultMode, resultCount, pageSize, panelId, id });
}

export function useCalcPreview(draft: ViewDraft): PreviewState {
  const [state, setState] = useState<PreviewState>({ result: null, error: null, loading: false });
  const key = useMemo(() => dataKey(draft), [draft]);
  const drawable = isDrawable(draft);
  // the call is made from the draft as it is when the pause ends
  const calc = useEffectEvent((signal: AbortSignal) => {
    const view = viewFromDraft(draft);
    const pageSize = isTableKind(draft.type) ? Number(getIn(draft.attr, ['size', 'tablePageSize']) ?? draft.pageSize) : undefined;
    return viewApi.calcData({ view, queryFrom: 'panel', cache: false, resultMode: draft.resultMode, resultCount: draft.resultCount, pageSize, goPage: 1 }, signal);
  });

  // asked again when the key (the draft's data-related parts) changes
  useEffect(() => {
    if (!drawable) {
      setState({ result: null, error: null, loading: false });
      return undefined;
    }
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    const timer = setTimeout(() => {
      calc(controller.signal)
        .then((r) => {
          if (r?.success === false || !r?.data) setState({ result: null, error: (r as unknown as { msg?: string })?.msg || '', loading: false });
          else setState({ result: r, error: null, loading: false });
        })
        .catch((e: Error) => {
          if (!controller.signal.aborted) setState({ result: null, error: e.message, loading: false });
        });
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [key, drawable]);

  return state;
}
