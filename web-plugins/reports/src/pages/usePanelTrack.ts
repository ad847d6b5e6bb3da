import { useEffect, useState } from 'react';
import { api, type Access } from '../api';
import { trackFilters } from '../model/jump';
import type { FilterItem } from '../model/types';
import { takeJumpParams } from '../panel/jumping';

/**
 * The jump flow's target side (spec 4): read and remove the stored parameters, fetch the target jump
 * info, then hand back the track filters. `null` while it is being worked out.
 */
export function useJumpTrack(panelId: string | undefined, access: Access | undefined): FilterItem[] | null {
  const [track, setTrack] = useState<FilterItem[] | null>(null);
  useEffect(() => {
    if (!panelId) return undefined;
    let alive = true;
    const params = takeJumpParams(panelId);
    if (!params) {
      setTrack([]);
      return undefined;
    }
    api
      .targetJump({ sourcePanelId: params.sourcePanelId, sourceViewId: params.sourceViewId, sourceFieldId: params.sourceFieldId, targetPanelId: panelId }, access)
      .then((info) => alive && setTrack(trackFilters(params, info?.baseJumpInfoVisualMap || {})))
      .catch(() => alive && setTrack([]));
    return () => {
      alive = false;
    };
  }, [panelId, access]);
  return track;
}
