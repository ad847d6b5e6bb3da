import { useNavigate } from 'react-router';
import { Button, Result } from 'antd';
import { useT } from '@atrium/sdk';

/** The shell's "no permission" page as this remote draws it (the SDK has no such component): a 403 with
 * what the user may not do here and the way back home. */
export function NoPermission() {
  const t = useT('forms');
  const navigate = useNavigate();
  return (
    <div data-testid="forms-no-permission">
      <Result
        status="403"
        title="403"
        subTitle={t('web.noPermission')}
        extra={<Button type="primary" onClick={() => navigate('/home')}>{t('web.backHome')}</Button>}
      />
    </div>
  );
}
