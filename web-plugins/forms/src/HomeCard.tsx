import { useEffect, useState } from 'react';
import { Statistic } from 'antd';
import { useT } from '@atrium/sdk';
import { formsApi } from './api';

/** The home dashboard's form count card. */
export function FormCountCard() {
  const t = useT('forms');
  const [n, setN] = useState<{ forms: number; published: number; submissions: number } | null>(null);
  useEffect(() => { formsApi.count().then(setN, () => setN(null)); }, []);
  return (
    <div data-testid="home-form-count">
      <Statistic title={t('web.formCount')} value={n?.forms ?? '-'} />
      <span style={{ fontSize: 12, opacity: 0.7 }}>{t('web.countDetail', { published: n?.published ?? 0, submissions: n?.submissions ?? 0 })}</span>
    </div>
  );
}

export function FormCountTitle() {
  const t = useT('forms');
  return <>{t('web.formCount')}</>;
}
