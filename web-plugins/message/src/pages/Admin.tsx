import { useCallback, useEffect, useMemo, useState } from 'react';
import { App as AntApp, Button, Card, Checkbox, Col, Form, Input, Result, Row, Select, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { localeText, useHasButton, useSession, useT } from '@atrium/sdk';
import { audience, sendLetter, sentLetters, type Audience, type SentLetter } from '../api';
import { sendTime } from '../format';

/** The server's limit on a letter's size. */
const MAX_CONTENT = 20000;

interface SendForm {
  toTenant: boolean;
  toUsers: string[];
  toRoles: string[];
  systemCode: string;
  content: string;
}

function isAdmin(profile: { isAdmin?: unknown; isSuperAdmin?: unknown }): boolean {
  return Number(profile.isAdmin) === 2 || profile.isAdmin === true || Number(profile.isSuperAdmin) === 1 || profile.isSuperAdmin === true;
}

/** The senders' screen (/message-management): administrators and holders of `message:send` write and send
 * system letters and see what was sent. */
export function Admin() {
  const t = useT('message');
  const { profile, systemCode } = useSession();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<SendForm>();
  const [options, setOptions] = useState<Audience | null>(null);
  const [sending, setSending] = useState(false);
  const [letters, setLetters] = useState<SentLetter[]>([]);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(1);
  const [loading, setLoading] = useState(false);
  const content = Form.useWatch('content', form) || '';
  const toTenant = Form.useWatch('toTenant', form);
  const maySend = useHasButton('message:send');
  const allowed = isAdmin(profile) || maySend;

  const loadLetters = useCallback(async (pageIndex: number) => {
    setLoading(true);
    try {
      const data = await sentLetters(pageIndex);
      setLetters(data.list);
      setTotal(data.total);
      setPage(pageIndex);
    } catch {
      /* shown by the request client */
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    if (!allowed) return;
    audience().then(setOptions, () => setOptions({ users: [], roles: [], systems: [] }));
    void loadLetters(1);
  }, [allowed, loadLetters]);

  const submit = async (values: SendForm) => {
    setSending(true);
    try {
      const sent = await sendLetter({
        content: values.content, toTenant: !!values.toTenant, toUsers: values.toTenant ? [] : values.toUsers || [],
        toRoles: values.toTenant ? [] : values.toRoles || [], systemCode: values.systemCode,
      });
      message.success(t('web.admin.sent', { count: sent.recipients }));
      form.resetFields(['content', 'toUsers', 'toRoles', 'toTenant']);
      void loadLetters(1);
    } catch {
      /* the server's message was shown */
    } finally {
      setSending(false);
    }
  };

  const userOptions = useMemo(
    () => (options?.users || []).map((u) => ({ value: u.userId, label: `${u.userFullName} (${u.account})` })),
    [options],
  );
  const roleOptions = useMemo(() => (options?.roles || []).map((r) => ({ value: r.roleId, label: r.roleName })), [options]);
  const systemOptions = useMemo(
    () => (options?.systems || []).map((s) => ({ value: s.systemCode, label: localeText(s.systemName, s.systemEnName) })),
    [options],
  );
  const systemNames = useMemo(() => new Map(systemOptions.map((o) => [o.value, o.label])), [systemOptions]);

  if (!allowed) {
    return <Result status="403" title="403" subTitle={t('web.admin.forbidden')} data-testid="message-admin-forbidden" />;
  }

  const columns: ColumnsType<SentLetter> = [
    {
      title: t('web.letters.content'), dataIndex: 'messageContent', key: 'content',
      render: (html: string) => <div className="at-prose" dangerouslySetInnerHTML={{ __html: html }} />,
    },
    {
      title: t('web.admin.recipients'), key: 'to', width: 260,
      render: (_: unknown, l) => (
        <>
          {l.toTenant && <Tag color="purple">{t('web.admin.wholeTenant')}</Tag>}
          {l.toRoles.map((r) => <Tag key={`r-${r}`} color="blue">{r}</Tag>)}
          {l.toUsers.map((u) => <Tag key={`u-${u}`}>{u}</Tag>)}
        </>
      ),
    },
    {
      title: t('web.admin.system'), dataIndex: 'systemCode', key: 'system', width: 110,
      render: (code: string) => systemNames.get(code) ?? code,
    },
    {
      title: t('web.admin.readCount'), key: 'reads', width: 110,
      render: (_: unknown, l) => `${l.readCount} / ${l.recipients}`,
    },
    { title: t('web.letters.sendTime'), dataIndex: 'sendTime', key: 'sendTime', width: 150, render: (v: string) => sendTime(v) },
  ];

  return (
    <div className="at-page" data-testid="message-admin">
      <Row gutter={16}>
        <Col xs={24} xl={11}>
          <Card title={t('web.admin.compose')}>
            <Form<SendForm> form={form} layout="vertical" onFinish={submit}
              initialValues={{ toTenant: false, toUsers: [], toRoles: [], systemCode, content: '' }}>
              <Form.Item name="toTenant" valuePropName="checked">
                <Checkbox data-testid="send-to-tenant">{t('web.admin.wholeTenant')}</Checkbox>
              </Form.Item>
              <Form.Item name="toUsers" label={t('web.admin.users')}>
                <Select mode="multiple" options={userOptions} disabled={toTenant} optionFilterProp="label" allowClear
                  placeholder={t('web.admin.usersHint')} data-testid="send-users" />
              </Form.Item>
              <Form.Item name="toRoles" label={t('web.admin.roles')}>
                <Select mode="multiple" options={roleOptions} disabled={toTenant} optionFilterProp="label" allowClear
                  placeholder={t('web.admin.rolesHint')} data-testid="send-roles" />
              </Form.Item>
              <Form.Item name="systemCode" label={t('web.admin.system')} rules={[{ required: true }]}>
                <Select options={systemOptions} data-testid="send-system" />
              </Form.Item>
              <Form.Item name="content" label={t('web.admin.content')} extra={t('web.admin.contentHint')}
                rules={[{ required: true, whitespace: true, message: t('web.admin.contentRequired') },
                  { max: MAX_CONTENT, message: t('web.admin.contentTooLong', { max: MAX_CONTENT }) }]}>
                <Input.TextArea rows={6} showCount maxLength={MAX_CONTENT} data-testid="send-content" />
              </Form.Item>
              <Typography.Text type="secondary">{t('web.admin.preview')}</Typography.Text>
              {/* a preview only: the server refuses scripts and sanitises what it stores */}
              <iframe title="preview" sandbox="" srcDoc={content} data-testid="send-preview"
                style={{ width: '100%', height: 120, border: '1px solid rgba(127,140,170,.3)', borderRadius: 6, margin: '4px 0 16px' }} />
              <Button type="primary" htmlType="submit" loading={sending} data-testid="send-submit">{t('web.admin.send')}</Button>
            </Form>
          </Card>
        </Col>
        <Col xs={24} xl={13}>
          <Card title={t('web.admin.sentTitle')}>
            <Table<SentLetter> rowKey="letterId" size="small" columns={columns} dataSource={letters} loading={loading}
              pagination={{ current: page, pageSize: 10, total, onChange: (p) => void loadLetters(p), showSizeChanger: false }} />
          </Card>
        </Col>
      </Row>
    </div>
  );
}
