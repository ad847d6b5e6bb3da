/** The tenant's users and roles by name (tenant administrators: the directory behind panel/subjects). */
import { useCallback, useEffect, useState } from 'react';
import { designerApi } from './api';
import type { Subjects, SubjectType } from './types';

export type SubjectUser = Subjects['users'][number];
export type SubjectRole = Subjects['roles'][number];

export const userLabel = (u: Pick<SubjectUser, 'name' | 'account'>) => (u.name && u.account && u.name !== u.account ? `${u.name} (${u.account})` : u.name || u.account || '');

/** Users and roles matching a keyword, asked again a moment after the typing stops. */
export function useSubjectSearch(enabled: boolean): { subjects: Subjects; keyword: string; setKeyword: (k: string) => void; loading: boolean } {
  const [keyword, setKeyword] = useState('');
  const [subjects, setSubjects] = useState<Subjects>({ users: [], roles: [] });
  const [loading, setLoading] = useState(false);
  useEffect(() => {
    if (!enabled) return undefined;
    let alive = true;
    setLoading(true);
    const timer = setTimeout(() => {
      designerApi
        .subjects(keyword)
        .then((found) => alive && setSubjects({ users: found?.users || [], roles: found?.roles || [] }))
        .catch(() => undefined)
        .finally(() => alive && setLoading(false));
    }, 250);
    return () => {
      alive = false;
      clearTimeout(timer);
    };
  }, [enabled, keyword]);
  return { subjects, keyword, setKeyword, loading };
}

/** Names of users and roles (`user:7` → "Alice (alice)"): the directory's first page, and every one picked since. */
export function useSubjectNames(enabled: boolean): { nameOf: (type: SubjectType, id: number | string) => string | undefined; remember: (type: SubjectType, id: number | string, name: string) => void } {
  const [names, setNames] = useState<Record<string, string>>({});
  useEffect(() => {
    if (!enabled) return;
    designerApi
      .subjects('')
      .then((found) => {
        const known: Record<string, string> = {};
        (found?.users || []).forEach((u) => (known[`user:${u.id}`] = userLabel(u)));
        (found?.roles || []).forEach((r) => (known[`role:${r.id}`] = r.name));
        setNames((was) => ({ ...known, ...was }));
      })
      .catch(() => undefined);
  }, [enabled]);
  const nameOf = useCallback((type: SubjectType, id: number | string) => names[`${type}:${id}`], [names]);
  const remember = useCallback((type: SubjectType, id: number | string, name: string) => setNames((was) => ({ ...was, [`${type}:${id}`]: name })), []);
  return { nameOf, remember };
}
