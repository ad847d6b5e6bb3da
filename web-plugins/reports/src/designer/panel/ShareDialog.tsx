/** The panel's shared link (spec 2.2, 5): enable, a 4-digit password, an expiry date, revoke, copy. */
import { App, Button, DatePicker, Input, Modal, Popconfirm, Select, Space, Spin, Switch, Typography } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { designerApi } from './api';
import type { ShareLink, ShareLinkUpdate } from './types';
import { Field } from './Field';
import { useDsT } from './i18n';

/** Spec 5: exactly four digits. */
export const validLinkPassword = (pwd: string) => /^\d{4}$/.test(pwd);

export function linkAddress(link: Pick<ShareLink, 'id' | 'uri'>, origin: string): string {
  if (!link.id) return '';
  const uri = link.uri || `/dynamic-report/link/${link.id}`;
  return /^https?:\/\//.test(uri) ? uri : `${origin}${uri.startsWith('/') ? '' : '/'}${uri}`;
}

export function ShareDialog({ panelId, open, onClose }: { panelId: string; open: boolean; onClose: () => void }) {
  const { t } = useDsT();
  const { message } = App.useApp();
  const [link, setLink] = useState<ShareLink | null>(null);
  const [pwd, setPwd] = useState('');
  const [pwdError, setPwdError] = useState('');
  const [busy, setBusy] = useState(false);
  const [origins, setOrigins] = useState<string[]>([]);

  useEffect(() => {
    if (!open) return;
    setLink(null);
    designerApi.shareLink(panelId).then((l) => {
      setLink(l);
      setPwd(l.pwd || '');
      setOrigins(l.embedOrigins || []);
    }).catch((e: Error) => message.error(e.message));
  }, [open, panelId, message]);

  const update = async (patch: Omit<ShareLinkUpdate, 'id'>, done?: string) => {
    if (!link?.id) return;
    setBusy(true);
    try {
      const next = await designerApi.updateShareLink({ id: link.id, ...patch });
      setLink(next);
      if (done) message.success(t(done));
    } catch (e) {
      message.error((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  /** The tenant requires a password on every link: the link is turned on with one, which cannot be removed. */
  const pwdRequired = !!link?.pwdRequired;
  /** Whether turning the link on must carry the password typed here (it has none yet). */
  const needsPwd = pwdRequired && !link?.enablePwd;

  /** The link is made (or turned back on) only here: opening the dialog leaves the panel private. */
  const enable = async () => {
    if (needsPwd && !validLinkPassword(pwd)) return setPwdError(t('share.pwdRule'));
    setPwdError('');
    setBusy(true);
    try {
      const next = await designerApi.enableShareLink(panelId, needsPwd ? pwd : undefined);
      setLink(next);
      setPwd(next.pwd || '');
      message.success(t('share.enabled'));
    } catch (e) {
      message.error((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const rotate = async () => {
    if (!link?.id) return;
    setBusy(true);
    try {
      setLink(await designerApi.rotateShareLink(link.id));
      message.success(t('share.rotated'));
    } catch (e) {
      message.error((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  /** Tenant administrators: require (or stop requiring) a password on every link of the organisation. */
  const requirePwd = async (on: boolean) => {
    if (!link) return;
    setBusy(true);
    try {
      const saved = await designerApi.saveReportSettings({ requireLinkPassword: on });
      setLink({ ...link, pwdRequired: saved.requireLinkPassword });
      message.success(t('share.requirePwdSaved'));
    } catch (e) {
      message.error((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const randomPwd = () => setPwd(String(Math.floor(Math.random() * 10000)).padStart(4, '0'));

  const savePassword = () => {
    if (!validLinkPassword(pwd)) return setPwdError(t('share.pwdRule'));
    setPwdError('');
    void update({ enablePwd: true, pwd }, 'share.pwdSaved');
  };
  const address = link ? linkAddress(link, window.location.origin) : '';

  return (
    <Modal open={open} title={t('share.title')} onCancel={onClose} footer={<Button onClick={onClose}>{t('common.close')}</Button>} destroyOnHidden width={560}>
      {!link ? <Spin /> : (
        <div data-testid="share-dialog" data-link-id={link.id ?? ''}>
          {link.canRequirePwd && (
            <Field label={t('share.requirePwd')}>
              <Switch data-testid="share-require-pwd" checked={pwdRequired} loading={busy} onChange={(on) => void requirePwd(on)} />
            </Field>
          )}
          {!link.valid && needsPwd && (
            <Field label={t('share.password')}>
              <Typography.Paragraph data-testid="share-pwd-required" type="secondary" style={{ marginBottom: 8 }}>
                {t('share.pwdRequired')}
              </Typography.Paragraph>
              <Space.Compact style={{ width: '100%' }}>
                <Input data-testid="share-pwd" maxLength={4} inputMode="numeric" value={pwd} status={pwdError ? 'error' : undefined} placeholder="0000" onChange={(e) => setPwd(e.target.value)} style={{ width: 110 }} />
                <Button data-testid="share-pwd-random" onClick={randomPwd}>{t('share.random')}</Button>
              </Space.Compact>
              {pwdError && <span data-testid="share-pwd-error" style={{ color: '#d4380d' }}>{pwdError}</span>}
            </Field>
          )}
          <Field label={t('share.enable')}>
            <Switch data-testid="share-enable" checked={link.valid} loading={busy} disabled={!link.valid && needsPwd && !validLinkPassword(pwd)} onChange={(on) => void (on ? enable() : update({ valid: false }, 'share.revoked'))} />
          </Field>
          {link.valid && link.id && (
            <>
              <Field label={t('share.address')}>
                <Typography.Paragraph data-testid="share-address" copyable={{ text: address, tooltips: [t('share.copy'), t('share.copied')] }} style={{ marginBottom: 0, wordBreak: 'break-all' }}>
                  {address}
                </Typography.Paragraph>
              </Field>
              <Field label={t('share.password')}>
                <Space.Compact style={{ width: '100%' }}>
                  <Switch data-testid="share-pwd-enable" checked={link.enablePwd} disabled={pwdRequired && link.enablePwd} onChange={(on) => (on ? (validLinkPassword(pwd) ? void update({ enablePwd: true, pwd }) : setLink({ ...link, enablePwd: true })) : void update({ enablePwd: false }))} style={{ marginRight: 8 }} />
                  {link.enablePwd && (
                    <>
                      <Input data-testid="share-pwd" maxLength={4} inputMode="numeric" value={pwd} status={pwdError ? 'error' : undefined} placeholder="0000" onChange={(e) => setPwd(e.target.value)} style={{ width: 110 }} />
                      <Button data-testid="share-pwd-random" onClick={randomPwd}>{t('share.random')}</Button>
                      <Button data-testid="share-pwd-save" type="primary" loading={busy} onClick={savePassword}>{t('common.save')}</Button>
                    </>
                  )}
                </Space.Compact>
                {pwdError && <span data-testid="share-pwd-error" style={{ color: '#d4380d' }}>{pwdError}</span>}
                {link.locked && <Typography.Text type="warning">{t('share.locked')}</Typography.Text>}
                {pwdRequired && <Typography.Text data-testid="share-pwd-required" type="secondary">{t('share.pwdRequired')}</Typography.Text>}
              </Field>
              <Field label={t('share.expiry')}>
                <DatePicker
                  data-testid="share-expiry"
                  showTime
                  allowClear
                  disabledDate={(d) => d.isBefore(dayjs().startOf('day'))}
                  value={link.overTime ? dayjs(link.overTime) : null}
                  onChange={(d) => void update(d ? { overTime: d.valueOf() } : { clearOverTime: true }, 'share.saved')}
                />
              </Field>
              <Field label={t('share.embed')}>
                <Space direction="vertical" style={{ width: '100%' }}>
                  <Switch
                    data-testid="share-embed"
                    checked={!!link.allowEmbed}
                    loading={busy}
                    onChange={(on) => (on ? setLink({ ...link, allowEmbed: true }) : void update({ allowEmbed: false, embedOrigins: [] }, 'share.saved'))}
                  />
                  {link.allowEmbed && (
                    <Space.Compact style={{ width: '100%' }}>
                      <Select
                        data-testid="share-embed-origins"
                        mode="tags"
                        open={false}
                        tokenSeparators={[',', ' ']}
                        value={origins}
                        placeholder="https://intranet.example.com"
                        onChange={(v: string[]) => setOrigins(v)}
                        style={{ flex: 1 }}
                      />
                      <Button data-testid="share-embed-save" type="primary" loading={busy} onClick={() => void update({ allowEmbed: true, embedOrigins: origins }, 'share.saved')}>
                        {t('common.save')}
                      </Button>
                    </Space.Compact>
                  )}
                  <Typography.Text type="secondary">{t('share.embedHint')}</Typography.Text>
                </Space>
              </Field>
              <Space wrap>
                <Popconfirm title={t('share.rotateConfirm')} onConfirm={() => void rotate()}>
                  <Button data-testid="share-rotate" loading={busy}>{t('share.rotate')}</Button>
                </Popconfirm>
                <Button danger data-testid="share-revoke" onClick={() => void update({ valid: false }, 'share.revoked')}>{t('share.revoke')}</Button>
              </Space>
            </>
          )}
        </div>
      )}
    </Modal>
  );
}
