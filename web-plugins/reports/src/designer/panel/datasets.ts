/** The fields of the datasets behind a panel's views (dataset/get), fetched once per dataset while the designer is open. */
import { useEffect, useState } from 'react';
import type { ChartView } from '../../model/types';
import type { DatasetField } from '../data/types';
import { designerApi } from './api';

/** A view as listByPanel answers it: with its dataset's id. */
export type PanelView = ChartView & { tableId?: string; updateTime?: number };

const cache = new Map<string, Promise<DatasetField[]>>();

export function datasetFields(datasetId: string): Promise<DatasetField[]> {
  let p = cache.get(datasetId);
  if (!p) {
    p = designerApi.dataset(datasetId).then((d) => (d.fields || []).filter((f) => f.checked !== false)).catch((e) => {
      cache.delete(datasetId);
      throw e;
    });
    cache.set(datasetId, p);
  }
  return p;
}

/** Fields by dataset id for the given datasets; a dataset that fails to load has none. */
export function useDatasetFields(datasetIds: string[]): Record<string, DatasetField[]> {
  const [fields, setFields] = useState<Record<string, DatasetField[]>>({});
  const key = Array.from(new Set(datasetIds.filter(Boolean))).sort().join(',');
  useEffect(() => {
    let alive = true;
    for (const id of key ? key.split(',') : []) {
      datasetFields(id)
        .then((list) => alive && setFields((f) => ({ ...f, [id]: list })))
        .catch(() => alive && setFields((f) => ({ ...f, [id]: [] })));
    }
    return () => {
      alive = false;
    };
  }, [key]);
  return fields;
}

export const viewLabel = (v: Pick<ChartView, 'title' | 'name' | 'id'>) => v.title || v.name || v.id;
