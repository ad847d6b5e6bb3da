/** The panel's proxy user among the panel's settings: who it is, and a button to change it. */
import { Button, Typography } from 'antd';
import { Field, Section } from './Field';
import { useDsT } from './i18n';
import type { ProxyUser } from './useProxyUser';

export function ProxySetting({ proxy, onChange }: { proxy: ProxyUser; onChange: () => void }) {
  const { t } = useDsT();
  return (
    <Section title={t('proxy.section')} testId="proxy-setting">
      <Field label={t('proxy.button')}>
        <div style={{ display: 'flex', alignItems: 'center', gap: 8, minWidth: 0 }}>
          <Typography.Text ellipsis={{ tooltip: proxy.label || undefined }} type={proxy.label ? undefined : 'secondary'} style={{ flex: 1, minWidth: 0 }} data-testid="proxy-setting-name">
            {proxy.id === undefined ? '' : proxy.label || t('proxy.none')}
          </Typography.Text>
          <Button size="small" data-testid="designer-proxy" disabled={proxy.id === undefined} onClick={onChange}>
            {proxy.id ? t('proxy.change') : t('proxy.set')}
          </Button>
        </div>
      </Field>
    </Section>
  );
}
