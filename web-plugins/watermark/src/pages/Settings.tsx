import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  App as AntApp, Button, Card, Col, ColorPicker, Form, Input, InputNumber, Popconfirm, Radio, Result, Row, Select,
  Slider, Space, Switch, Table, Tag, Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useNavigate } from 'react-router';
import { bus, localeText, useSession, useT } from '@atrium/sdk';
import { deleteSetting, listSettings, previewText, saveSetting, type Watermark, type WatermarkInput } from '../api';
import { tileUrl, TILE } from '../draw';

const FONTS = ['Microsoft YaHei', 'PingFang SC', 'SimSun', 'Arial', 'Helvetica', 'Segoe UI'];
const PREVIEW_DEBOUNCE = 300;

type FormValues = Omit<WatermarkInput, 'isTakeEffect' | 'isView' | 'fwColor'> & {
  isTakeEffect: boolean;
  isView: boolean;
  fwColor: string | { toHexString(): string };
};

const EMPTY: FormValues = {
  ffwFunctionCode: '', systemCode: '', fwContent: '{userFullName} {staffNo}', fwType: 'dynamic', fwFont: 'Microsoft YaHei',
  fwFontSize: 18, fwColor: '#000000', fwRotationAngle: -20, fwTransparent: 85, isTakeEffect: true, isView: true,
};

function toForm(w: Watermark): FormValues {
  return { ...w, isTakeEffect: !!w.isTakeEffect, isView: !!w.isView };
}

function colorText(c: FormValues['fwColor']): string {
  return typeof c === 'string' ? c : c.toHexString();
}

function isAdmin(profile: { isAdmin?: unknown; isSuperAdmin?: unknown }): boolean {
  return Number(profile.isAdmin) === 2 || profile.isAdmin === true || Number(profile.isSuperAdmin) === 1 || profile.isSuperAdmin === true;
}

/** The watermark settings screen (/system_manage/watermark): list, edit with a live preview, delete. */
export function Settings() {
  const t = useT('watermark');
  const { profile, user } = useSession();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<FormValues>();
  const [rows, setRows] = useState<Watermark[]>([]);
  const [placeholders, setPlaceholders] = useState<string[]>([]);
  const [editing, setEditing] = useState<string | undefined>(undefined);
  const [saving, setSaving] = useState(false);
  const [preview, setPreview] = useState('');
  const values = Form.useWatch([], form) as FormValues | undefined;
  const allowed = isAdmin(profile);
  const previewTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const navigate = useNavigate();

  const reload = useCallback(async () => {
    const data = await listSettings();
    setRows(data.list);
    setPlaceholders(data.placeholders);
  }, []);

  useEffect(() => {
    if (allowed) reload().catch(() => undefined);
  }, [allowed, reload]);

  // live preview: the text comes from the server (placeholders filled in for the signed-in admin)
  useEffect(() => {
    if (!values?.fwContent) {
      setPreview('');
      return undefined;
    }
    clearTimeout(previewTimer.current);
    previewTimer.current = setTimeout(() => {
      previewText(values.fwType, values.fwContent).then((r) => setPreview(r.content), () => setPreview(''));
    }, PREVIEW_DEBOUNCE);
    return () => clearTimeout(previewTimer.current);
  }, [values?.fwType, values?.fwContent]);

  const tile = useMemo(() => (preview && values ? tileUrl({
    content: preview, fwFont: values.fwFont, fwFontSize: values.fwFontSize, fwColor: colorText(values.fwColor),
    fwRotationAngle: values.fwRotationAngle, fwTransparent: values.fwTransparent,
  }) : ''), [preview, values]);

  const edit = (w?: Watermark) => {
    setEditing(w?.ffwId);
    form.setFieldsValue(w ? toForm(w) : EMPTY);
  };

  const submit = async (v: FormValues) => {
    setSaving(true);
    try {
      const saved = await saveSetting({
        ...v, ffwId: editing, fwColor: colorText(v.fwColor), isTakeEffect: v.isTakeEffect ? 1 : 0, isView: v.isView ? 1 : 0,
      });
      setEditing(saved.ffwId);
      message.success(t('web.saved'));
      await reload();
      bus.emit('watermark:refresh');
    } catch {
      /* the server's message was shown */
    } finally {
      setSaving(false);
    }
  };

  const remove = async (w: Watermark) => {
    await deleteSetting(w.ffwId);
    if (editing === w.ffwId) edit(undefined);
    message.success(t('web.deleted'));
    await reload();
    bus.emit('watermark:refresh');
  };

  const insert = (name: string) => {
    const current = form.getFieldValue('fwContent') || '';
    form.setFieldsValue({ fwContent: `${current}{${name}}` });
  };

  if (!allowed) return <Result status="403" title="403" subTitle={t('web.forbidden')} />;

  const systems = (user?.systems || []).map((s) => ({ value: s.systemCode, label: localeText(s.systemName, s.systemEnName) }));
  const columns: ColumnsType<Watermark> = [
    { title: t('web.functionCode'), dataIndex: 'ffwFunctionCode', key: 'fn', render: (v: string) => v || <Tag>{t('web.all')}</Tag> },
    { title: t('web.system'), dataIndex: 'systemCode', key: 'sys', render: (v: string) => v || <Tag>{t('web.all')}</Tag> },
    { title: t('web.content'), dataIndex: 'fwContent', key: 'content' },
    { title: t('web.type'), dataIndex: 'fwType', key: 'type', render: (v: string) => t(`web.types.${v}`) },
    {
      title: t('web.state'), key: 'state',
      render: (_: unknown, w) => (w.isTakeEffect && w.isView ? <Tag color="green">{t('web.active')}</Tag> : <Tag>{t('web.inactive')}</Tag>),
    },
    {
      title: t('web.action'), key: 'action', width: 150,
      render: (_: unknown, w) => (
        <Space size="small">
          <Button size="small" type="link" onClick={() => edit(w)} data-testid="watermark-edit">{t('web.edit')}</Button>
          <Popconfirm title={t('web.deleteConfirm')} onConfirm={() => remove(w)} okText={t('web.delete')} cancelText={t('web.cancel')}>
            <Button size="small" type="link" danger>{t('web.delete')}</Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <div className="at-page" data-testid="watermark-settings">
      <Row gutter={16}>
        <Col xs={24} xl={12}>
          <Card title={t('web.title')} extra={<Button type="primary" onClick={() => edit(undefined)} data-testid="watermark-new">{t('web.new')}</Button>}>
            <Table<Watermark> rowKey="ffwId" size="small" columns={columns} dataSource={rows} pagination={false} />
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card title={editing ? t('web.editTitle') : t('web.newTitle')}>
            <Form<FormValues> form={form} layout="vertical" initialValues={EMPTY} onFinish={submit}>
              <Row gutter={12}>
                <Col span={12}>
                  <Form.Item name="ffwFunctionCode" label={t('web.functionCode')} extra={t('web.functionHint')}>
                    <Input allowClear maxLength={64} />
                  </Form.Item>
                </Col>
                <Col span={12}>
                  <Form.Item name="systemCode" label={t('web.system')}>
                    <Select allowClear options={[{ value: '', label: t('web.all') }, ...systems]} />
                  </Form.Item>
                </Col>
              </Row>
              <Form.Item name="fwType" label={t('web.type')}>
                <Radio.Group options={[{ value: 'dynamic', label: t('web.types.dynamic') }, { value: 'static', label: t('web.types.static') }]} />
              </Form.Item>
              <Form.Item name="fwContent" label={t('web.content')} rules={[{ required: true, whitespace: true }]}
                extra={values?.fwType === 'dynamic' && (
                  <Space size={4} wrap style={{ marginTop: 4 }}>
                    {placeholders.map((p) => <Tag key={p} style={{ cursor: 'pointer' }} onClick={() => insert(p)}>{`{${p}}`}</Tag>)}
                  </Space>
                )}>
                <Input maxLength={200} data-testid="watermark-content" />
              </Form.Item>
              <Row gutter={12}>
                <Col span={12}>
                  <Form.Item name="fwFont" label={t('web.font')}>
                    <Select options={FONTS.map((f) => ({ value: f, label: f }))} />
                  </Form.Item>
                </Col>
                <Col span={6}>
                  <Form.Item name="fwFontSize" label={t('web.fontSize')}>
                    <InputNumber min={10} max={48} style={{ width: '100%' }} />
                  </Form.Item>
                </Col>
                <Col span={6}>
                  <Form.Item name="fwColor" label={t('web.color')}>
                    <ColorPicker format="hex" />
                  </Form.Item>
                </Col>
              </Row>
              <Row gutter={12}>
                <Col span={12}>
                  <Form.Item name="fwRotationAngle" label={t('web.rotation')}><Slider min={-90} max={90} ariaLabelForHandle={t('web.rotation')} /></Form.Item>
                </Col>
                <Col span={12}>
                  <Form.Item name="fwTransparent" label={t('web.transparency')}><Slider min={0} max={100} ariaLabelForHandle={t('web.transparency')} /></Form.Item>
                </Col>
              </Row>
              <Space size="large">
                <Form.Item name="isTakeEffect" label={t('web.takeEffect')} valuePropName="checked"><Switch /></Form.Item>
                <Form.Item name="isView" label={t('web.view')} valuePropName="checked"><Switch /></Form.Item>
              </Space>
              <Typography.Text type="secondary">{t('web.preview')}</Typography.Text>
              <div data-testid="watermark-preview" title={preview}
                style={{ height: TILE, margin: '4px 0 16px', border: '1px solid rgba(127,140,170,.3)', borderRadius: 6,
                  backgroundImage: tile ? `url("${tile}")` : undefined, backgroundRepeat: 'repeat', backgroundSize: `${TILE}px ${TILE}px` }} />
              <Space>
                <Button type="primary" htmlType="submit" loading={saving} data-testid="watermark-save">{t('web.save')}</Button>
                <Button data-testid="watermark-file-preview-link"
                  onClick={() => navigate(`/watermark-preview?funcCode=${encodeURIComponent(values?.ffwFunctionCode || '')}`)}>
                  {t('web.filePreview.action')}
                </Button>
              </Space>
            </Form>
          </Card>
        </Col>
      </Row>
    </div>
  );
}
