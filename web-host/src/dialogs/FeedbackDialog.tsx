import { useEffect, useEffectEvent, useState } from 'react';
import { useLocation } from 'react-router';
import { App, Form, Input, Modal, Select, Upload, type UploadFile } from 'antd';
import { PlusIcon } from '../icons';
import { request, upload, useT } from '@atrium/sdk';
import { store, useStore } from '../store';

interface DicItem {
  dicName: string;
  dicCode?: string;
  diId?: string | number;
}

/** What `file/iot-base-attachment/single/file-upload` answers. */
interface Uploaded {
  fileId?: string | number;
  filePath?: string;
}

/** Feedback dialog (40 % wide): reason from FEEDBACK_DIC, description up to 200 characters, images by
 * upload or by pasting a PNG. */
export function FeedbackDialog({ activeTitle }: { activeTitle: string }) {
  const t = useT();
  const { message } = App.useApp();
  const location = useLocation();
  const open = useStore((s) => s.feedbackOpen);
  const device = useStore((s) => s.device);
  const fileService = useStore((s) => !!s.manifest?.services?.file);
  const [form] = Form.useForm();
  const [reasons, setReasons] = useState<DicItem[]>([]);
  const [files, setFiles] = useState<UploadFile[]>([]);
  const [saving, setSaving] = useState(false);

  const sendImage = async (file: File) => {
    if (!fileService) {
      message.warning(t('feedback.uploadUnavailable'));
      return;
    }
    const uid = `${Date.now()}-${Math.random()}`;
    setFiles((list) => [...list, { uid, name: file.name || 'image.png', status: 'uploading' }]);
    try {
      const data = await upload<Uploaded>('file/iot-base-attachment/single/file-upload', file, {}, { params: { funcCode: 'feedback' } });
      setFiles((list) => list.map((f) => (f.uid === uid ? { ...f, status: 'done', url: data?.filePath, response: data } : f)));
    } catch {
      setFiles((list) => list.map((f) => (f.uid === uid ? { ...f, status: 'error' } : f)));
    }
  };

  // Pasting a picture while the dialog is open: PNG only (with the current language and file service).
  const pasted = useEffectEvent((event: ClipboardEvent) => {
    const items = Array.from(event.clipboardData?.items || []);
    const image = items.find((i) => i.kind === 'file');
    if (!image) return;
    event.preventDefault();
    if (image.type !== 'image/png') {
      message.warning(t('feedback.pngOnly'));
      return;
    }
    const file = image.getAsFile();
    if (file) void sendImage(file);
  });

  useEffect(() => {
    if (!open) return undefined;
    form.resetFields();
    setFiles([]);
    request<DicItem[]>('base/dic-items/get-dictype', { params: { dicType: 'FEEDBACK_DIC' }, silent: true })
      .then((list) => setReasons(Array.isArray(list) ? list : []))
      .catch(() => setReasons([]));
    const onPaste = (event: ClipboardEvent) => pasted(event);
    document.addEventListener('paste', onPaste);
    return () => document.removeEventListener('paste', onPaste);
  }, [open, form]);

  const submit = async () => {
    let values: { reason: string; description?: string };
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      await request('portal/base-exception/save', {
        method: 'POST',
        silent: true,
        data: {
          ibeOutside: values.reason,
          ibeFunctionName: activeTitle,
          ibeServiceUrl: location.pathname + location.search,
          ibeDeviceType: 'PC',
          ibeExceptionDesc: (values.description || '').trim(),
          fileIds: files.filter((f) => f.status === 'done').map((f) => (f.response as Uploaded)?.fileId).filter((x) => x !== undefined),
        },
      });
      message.success(t('feedback.thanks'));
      form.resetFields();
      setFiles([]);
      store.set({ feedbackOpen: false });
    } catch (err) {
      message.warning((err as Error).message || t('feedback.failed'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('feedback.title')}
      width={device === 'mobile' ? '92%' : '40%'}
      onCancel={() => store.set({ feedbackOpen: false })}
      onOk={submit}
      okText={t('common.submit')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      destroyOnHidden
    >
      <Form form={form} layout="vertical">
        <Form.Item label={t('feedback.page')}>
          <Input value={activeTitle} disabled />
        </Form.Item>
        <Form.Item name="reason" label={t('feedback.reason')} rules={[{ required: true, message: t('feedback.reasonRequired') }]}>
          <Select
            placeholder={t('feedback.reasonPlaceholder')}
            options={reasons.map((r) => ({ value: String(r.dicCode ?? r.diId ?? r.dicName), label: r.dicName }))}
            data-testid="feedback-reason"
          />
        </Form.Item>
        <Form.Item name="description" label={t('feedback.description')}>
          <Input.TextArea rows={4} maxLength={200} showCount placeholder={t('feedback.descriptionPlaceholder')} data-testid="feedback-description" />
        </Form.Item>
        <Form.Item label={t('feedback.images')} extra={t('feedback.pasteHint')}>
          <Upload
            listType="picture-card"
            accept="image/png,image/jpeg"
            fileList={files}
            beforeUpload={(file) => {
              void sendImage(file);
              return false;
            }}
            onRemove={(file) => setFiles((list) => list.filter((f) => f.uid !== file.uid))}
          >
            {files.length < 6 && (
              <div>
                <PlusIcon />
                <div style={{ marginTop: 6 }}>{t('feedback.upload')}</div>
              </div>
            )}
          </Upload>
        </Form.Item>
      </Form>
    </Modal>
  );
}
