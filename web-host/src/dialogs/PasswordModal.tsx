import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert, App, Form, Input, Modal } from 'antd';
import { base64Utf8, request, useT } from '@atrium/sdk';
import { logout } from '../api';
import { store, useStore } from '../store';

/**
 * Password dialogs: forced (password info asks for it; not closable unless optType is 2) and the
 * user's own change password. After a successful change the server has revoked every session of the
 * user: the page signs out by itself (no sign-out call with the dead tokens, whose "sign-in expired"
 * answer read like a failure) and says that the password was changed and to sign in with the new one.
 */
export function PasswordModal() {
  const t = useT();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const forced = useStore((s) => s.passwordDialog);
  const voluntary = useStore((s) => s.changePasswordOpen);
  const info = useStore((s) => s.passwordInfo);
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);
  const [tips, setTips] = useState<string | undefined>();
  const open = !!forced || voluntary;
  const closable = voluntary || forced === 'closable';

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    // the message after a change is in the `server` bundle (`password.changed_sign_in_again`)
    t.i18n.loadNamespaces('server').catch(() => undefined);
    request<{ pwdTips?: string }>('base/tenant-pwd-strategy/find-pwd-msg', { silent: true })
      .then((d) => setTips(d?.pwdTips))
      .catch(() => undefined);
  }, [open, form, t.i18n]);

  const close = () => store.set({ passwordDialog: false, changePasswordOpen: false });

  const submit = async () => {
    let values: Record<string, string>;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      await request('base/base-user/update-pwd', {
        method: 'POST',
        data: {
          oldMagic: base64Utf8(values.oldPassword.trim()),
          magic: base64Utf8(values.newPassword.trim()),
          confirmMagic: base64Utf8(values.confirmPassword.trim()),
        },
      });
      close();
      await logout({ revoked: true });
      navigate('/login');
      message.success({
        content: t('server:password.changed_sign_in_again', { defaultValue: t('password.changed') }),
        duration: 6,
        key: 'password-changed',
      });
    } catch {
      /* the request client showed the server's message */
    } finally {
      setSaving(false);
    }
  };

  const trimmed = (v: unknown) => String(v ?? '').trim();
  return (
    <Modal
      open={open}
      title={forced && !voluntary ? t('password.forcedTitle') : t('user.changePassword')}
      onOk={submit}
      okText={t('common.save')}
      confirmLoading={saving}
      onCancel={closable ? close : undefined}
      cancelText={forced === 'closable' && !voluntary ? t('password.later') : t('common.cancel')}
      cancelButtonProps={closable ? undefined : { style: { display: 'none' } }}
      closable={closable}
      mask={{ closable: false }}
      keyboard={closable}
      destroyOnHidden
      data-testid="password-dialog"
    >
      {forced && !voluntary && info?.reason && <Alert type="warning" showIcon message={info.reason} style={{ marginBottom: 16 }} />}
      {(tips || info?.pwdTips) && <Alert type="info" message={tips || info?.pwdTips} style={{ marginBottom: 16 }} />}
      <Form form={form} layout="vertical" requiredMark>
        <Form.Item name="oldPassword" label={t('password.old')} rules={[{ validator: (_, v) => (trimmed(v) ? Promise.resolve() : Promise.reject(new Error(t('password.oldRequired')))) }]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          name="newPassword"
          label={t('password.new')}
          rules={[{
            validator: (_, v) => {
              if (!trimmed(v)) return Promise.reject(new Error(t('password.newRequired')));
              if (trimmed(v).length < 6) return Promise.reject(new Error(t('password.tooShort')));
              return Promise.resolve();
            },
          }]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirmPassword"
          label={t('password.confirm')}
          dependencies={['newPassword']}
          rules={[({ getFieldValue }) => ({
            validator: (_, v) => {
              if (!trimmed(v)) return Promise.reject(new Error(t('password.confirmRequired')));
              if (trimmed(v) !== trimmed(getFieldValue('newPassword'))) return Promise.reject(new Error(t('password.mismatch')));
              return Promise.resolve();
            },
          })]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
