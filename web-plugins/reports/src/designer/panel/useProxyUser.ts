/** The panel's proxy user (spec 6): read from the panel, named from the directory (administrators) or
 * from the session (oneself). */
import { useSession } from '@atrium/sdk';
import { useCallback, useEffect, useState } from 'react';
import { designerApi } from './api';
import { useDsT } from './i18n';
import { useSubjectNames, userLabel } from './subjects';

const isTruthy = (v: unknown) => v === true || v === 1 || v === '1';

export interface Me {
  id: number;
  label: string;
}

export interface ProxyUser {
  /** undefined while the panel is read. */
  id: number | null | undefined;
  label: string | null;
  isAdmin: boolean;
  me: Me;
  /** After a save: the proxy as the server answered it, with the label picked. */
  saved: (id: number | null, label?: string) => void;
}

export function useProxyUser(panelId: string): ProxyUser {
  const { t } = useDsT();
  const { profile, user } = useSession();
  const isAdmin = isTruthy(profile.isAdmin) || isTruthy(profile.isSuperAdmin);
  const me: Me = { id: Number(profile.userId ?? user?.userId), label: userLabel({ name: String(profile.userFullName || user?.userFullName || ''), account: user?.account }) };
  const names = useSubjectNames(isAdmin);
  const [id, setId] = useState<number | null | undefined>(undefined);
  const [serverName, setServerName] = useState('');
  useEffect(() => {
    let alive = true;
    designerApi
      .panel(panelId)
      .then((p) => {
        if (!alive) return;
        setId(p?.proxy ?? null);
        setServerName(p?.proxyName || '');
      })
      .catch(() => alive && setId(null));
    return () => {
      alive = false;
    };
  }, [panelId]);
  const { remember } = names;
  const saved = useCallback((next: number | null, label?: string) => {
    if (next != null && label) remember('user', next, label);
    setServerName('');
    setId(next);
  }, [remember]);
  const label = id == null ? null : id === me.id && me.label ? me.label : names.nameOf('user', id) || serverName || t('proxy.userNumber', { id });
  return { id, label, isAdmin, me, saved };
}
