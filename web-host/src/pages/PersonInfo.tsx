import { useState } from 'react';
import { App, Avatar, Button, Card, Col, Descriptions, Form, Input, Row, Upload } from 'antd';
import { CameraIcon, LockIcon } from '../icons';
import { request, session, upload, useT, type UserInfo } from '@atrium/sdk';
import { avatarText } from '../menus';
import { store, useStore } from '../store';
import { useAvatarSrc } from '../components/avatar';

const FIELDS = ['userFullName', 'mobile', 'email', 'department'] as const;

/** Personal centre: staff number, name, mobile, email, department, avatar. */
export function PersonInfo() {
  const t = useT();
  const { message } = App.useApp();
  const user = useStore((s) => s.user);
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);
  const [uploading, setUploading] = useState(false);
  const avatar = useAvatarSrc(user);

  const refresh = async () => {
    const fresh = await request<UserInfo>('base/base-user/get-login-user', { silent: true });
    session.setUser(fresh);
    store.set({ user: fresh });
  };

  const save = async () => {
    let values: Record<string, string>;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    const changes: Record<string, string> = {};
    for (const k of FIELDS) {
      const v = (values[k] ?? '').trim();
      if (v !== String(user?.[k] ?? '')) changes[k] = v;
    }
    if (!Object.keys(changes).length) {
      message.warning(t('person.noChanges'));
      return;
    }
    setSaving(true);
    try {
      await request('base/base-user/update-info', { method: 'POST', data: changes });
      await refresh();
      message.success(t('person.saved'));
    } catch {
      /* shown by the request client */
    } finally {
      setSaving(false);
    }
  };

  const uploadAvatar = async (file: File) => {
    if (!file) {
      message.error(t('person.avatarRequired'));
      return;
    }
    if (!['image/png', 'image/jpeg'].includes(file.type)) {
      message.error(t('person.avatarType'));
      return;
    }
    if (file.size > 2 * 1024 * 1024) {
      message.error(t('person.avatarSize'));
      return;
    }
    setUploading(true);
    try {
      await upload('base/base-user/upload-avatar', file);
      await refresh();
      message.success(t('person.avatarSaved'));
    } catch {
      /* shown by the request client */
    } finally {
      setUploading(false);
    }
  };

  return (
    <div className="at-page" data-testid="person-info">
      <Row gutter={[24, 24]}>
        <Col xs={24} md={8}>
          <Card variant="borderless" style={{ textAlign: 'center' }}>
            <Avatar size={96} src={avatar} style={{ background: 'var(--at-primary)', fontSize: 36 }}>{avatarText(user?.userFullName)}</Avatar>
            <div style={{ fontSize: 18, fontWeight: 600, marginTop: 12 }}>{user?.userFullName}</div>
            <div style={{ color: 'var(--at-muted)', marginTop: 4 }}>{user?.tenantName}</div>
            <div style={{ display: 'flex', gap: 8, justifyContent: 'center', marginTop: 16, flexWrap: 'wrap' }}>
              <Upload accept="image/png,image/jpeg" showUploadList={false} beforeUpload={(file) => { void uploadAvatar(file); return false; }}>
                <Button icon={<CameraIcon />} loading={uploading}>{t('person.changeAvatar')}</Button>
              </Upload>
              <Button icon={<LockIcon />} onClick={() => store.set({ changePasswordOpen: true })}>{t('user.changePassword')}</Button>
            </div>
          </Card>
        </Col>
        <Col xs={24} md={16}>
          <Descriptions title={t('person.title')} column={{ xs: 1, sm: 2 }} bordered size="middle" style={{ marginBottom: 24 }}>
            <Descriptions.Item label={t('person.staffNo')}>{user?.staffNo || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('person.account')}>{user?.account || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('person.name')}>{user?.userFullName || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('person.mobile')}>{user?.mobile || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('person.email')}>{user?.email || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('person.department')}>{user?.department || '—'}</Descriptions.Item>
          </Descriptions>
          <Form form={form} layout="vertical" initialValues={Object.fromEntries(FIELDS.map((k) => [k, user?.[k] ?? '']))} style={{ maxWidth: 560 }}>
            <Form.Item name="userFullName" label={t('person.name')} rules={[{ required: true, whitespace: true, message: t('person.nameRequired') }, { max: 32 }]}>
              <Input />
            </Form.Item>
            <Form.Item name="mobile" label={t('person.mobile')} rules={[{ pattern: /^1[3-9]\d{9}$/, message: t('login.phoneInvalid') }]}>
              <Input maxLength={11} />
            </Form.Item>
            <Form.Item name="email" label={t('person.email')} rules={[{ type: 'email', message: t('login.emailInvalid') }]}>
              <Input />
            </Form.Item>
            <Form.Item name="department" label={t('person.department')}>
              <Input />
            </Form.Item>
            <Button type="primary" onClick={save} loading={saving} data-testid="person-save">{t('common.save')}</Button>
          </Form>
        </Col>
      </Row>
    </div>
  );
}
