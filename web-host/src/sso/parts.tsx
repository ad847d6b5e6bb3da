import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { App, Button, Form, Input, Result, Segmented, Spin, Typography } from 'antd';
import { RequestError, useT } from '@atrium/sdk';
import { linkByCode, sendLinkCode, type SignInAnswer } from './api';
import { completeSignIn } from './signin';

export function useSsoT() {
  return useT('sso');
}

/** A full-page frame for the sign-in routes. */
export function Screen({ children, testId }: { children: ReactNode; testId: string }) {
  return (
    <div className="at-center" style={{ minHeight: '100vh', padding: 24 }} data-testid={testId}>
      <div style={{ width: '100%', maxWidth: 440 }}>{children}</div>
    </div>
  );
}

export function Working({ text }: { text?: string }) {
  return (
    <div style={{ textAlign: 'center' }} data-testid="sso-working">
      <Spin size="large" />
      {text && <Typography.Paragraph type="secondary" style={{ marginTop: 16 }}>{text}</Typography.Paragraph>}
    </div>
  );
}

/** A failed sign-in: the server's message and a way back to the sign-in page. */
export function SignInFailed({ message }: { message: string }) {
  const t = useSsoT();
  const navigate = useNavigate();
  return (
    <Result
      status="error"
      title={t('web.failedTitle')}
      subTitle={<span data-testid="sso-error">{message}</span>}
      extra={<Button type="primary" onClick={() => navigate('/login', { replace: true })}>{t('web.backToLogin')}</Button>}
    />
  );
}

export interface LinkNeeded {
  bindTicket: string;
  name?: string;
}

/** The error of a failed call, or the link offer when the identity is linked to no account. */
export function failure(err: unknown, fallback: string): { message: string; link?: LinkNeeded } {
  const e = err as RequestError;
  if (e?.code === 1010 && e.data && typeof e.data === 'object') return { message: e.message, link: e.data as LinkNeeded };
  return { message: e?.message || fallback };
}

/** Link the identity to an existing account by a code sent to that account's phone or e-mail. */
export function LinkAccount({ link, onDone }: { link: LinkNeeded; onDone: (data: SignInAnswer) => void }) {
  const t = useSsoT();
  const { message } = App.useApp();
  const [channel, setChannel] = useState<'sms' | 'email'>('sms');
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm();
  const send = async () => {
    const target = String(form.getFieldValue('target') || '').trim();
    if (!target) return void form.validateFields(['target']);
    try {
      await sendLinkCode(channel, target, link.bindTicket);
      message.success(t('web.codeSent'));
    } catch (err) {
      message.error((err as RequestError).message);
    }
  };
  const submit = async (values: { target: string; code: string }) => {
    setBusy(true);
    try {
      onDone(await linkByCode(link.bindTicket, channel, values.target.trim(), values.code.trim()));
    } catch (err) {
      message.error((err as RequestError).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div data-testid="sso-link">
      <Typography.Title level={4}>{t('web.linkTitle')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('web.linkText', { name: link.name || '' })}</Typography.Paragraph>
      <Segmented
        block
        value={channel}
        onChange={(v) => setChannel(v as 'sms' | 'email')}
        options={[{ value: 'sms', label: t('web.byPhone') }, { value: 'email', label: t('web.byEmail') }]}
        style={{ marginBottom: 16 }}
      />
      <Form form={form} onFinish={submit} size="large">
        <Form.Item name="target" rules={[{ required: true, whitespace: true, message: t(channel === 'sms' ? 'web.phoneEmpty' : 'web.emailEmpty') }]}>
          <Input placeholder={t(channel === 'sms' ? 'web.phone' : 'web.email')} data-testid="sso-link-target" />
        </Form.Item>
        <Form.Item name="code" rules={[{ required: true, whitespace: true, message: t('web.codeEmpty') }]}>
          <Input
            placeholder={t('web.code')}
            maxLength={8}
            data-testid="sso-link-code"
            suffix={<Button type="link" size="small" onClick={send} data-testid="sso-link-send">{t('web.sendCode')}</Button>}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={busy}>{t('web.linkSubmit')}</Button>
      </Form>
    </div>
  );
}

/** Stores the answer and goes on to where the person wanted to be. */
export function useFinish(): (data: SignInAnswer) => void {
  const navigate = useNavigate();
  return (data) => navigate(completeSignIn(data), { replace: true });
}
