import { useEffect, useState } from 'react';
import { Statistic } from 'antd';
import { useT } from '@atrium/sdk';
import { formsApi } from './api';

/** The count as the server answers it: the tenant's figures, or (without the statistics button) "mine":
 * the published forms I can fill in and my own submissions. */
type FormCount = Awaited<ReturnType<typeof formsApi.count>> & { scope?: 'tenant' | 'mine' };

/** The home dashboard's form count card. */
export function FormCountCard() {
  const t = useT('forms');
  const [n, setN] = useState<FormCount | null>(null);
  useEffect(() => { (formsApi.count() as Promise<FormCount>).then(setN, () => setN(null)); }, []);
  const mine = n?.scope === 'mine';
  return (
    <div data-testid="home-form-count" data-scope={n?.scope}>
      <Statistic title={mine ? t('web.myFormCount') : t('web.formCount')} value={n?.forms ?? '-'} />
      <span style={{ fontSize: 12, opacity: 0.7 }}>
        {mine
          ? t('web.myCountDetail', { submissions: n?.submissions ?? 0 })
          : t('web.countDetail', { published: n?.published ?? 0, submissions: n?.submissions ?? 0 })}
      </span>
    </div>
  );
}

export function FormCountTitle() {
  const t = useT('forms');
  return <>{t('web.formCount')}</>;
}
