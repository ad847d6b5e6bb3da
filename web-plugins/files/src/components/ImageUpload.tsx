/**
 * Image upload for reports and forms (spec 5): jpg, jpeg or png, at most 2 MB each, 5 images by default;
 * a picture can be viewed and deleted (after a confirmation). Exposed as `./ImageUpload`.
 * The value is the list of image attachments `{url, fileId}` (spec 3.8).
 */
import { useEffect, useState } from 'react';
import { App as AntApp, Image, Upload } from 'antd';
import type { UploadFile } from 'antd';
import { appUrl, useT } from '@atrium/sdk';
import { deleteFile, uploadFile, viewUrl } from '../api';
import { checkImage, IMAGE_MAX_BYTES, IMAGE_MAX_COUNT } from '../limits';

export interface ImageAttachment {
  url: string;
  fileId: number;
}

export interface ImageUploadProps {
  value?: ImageAttachment[];
  onChange?: (value: ImageAttachment[]) => void;
  maxCount?: number;
  maxSize?: number;
  funcCode?: string;
  disabled?: boolean;
}

type Item = UploadFile & { fileId?: number; stored?: string };

export function ImageUpload({ value = [], onChange, maxCount = IMAGE_MAX_COUNT, maxSize = IMAGE_MAX_BYTES, funcCode = 'image', disabled }: ImageUploadProps) {
  const t = useT('files');
  const { message, modal } = AntApp.useApp();
  const [items, setItems] = useState<Item[]>([]);
  const [preview, setPreview] = useState<string>('');

  // the list is drawn again when the attachments change, not when the caller hands in an equal new array
  const valueKey = JSON.stringify(value);
  useEffect(() => {
    let alive = true;
    const attachments: ImageAttachment[] = JSON.parse(valueKey);
    Promise.all(attachments.map(async (v) => {
      const thumb = await viewUrl(v.url).catch(() => '');
      return { uid: String(v.fileId), name: v.url.split('/').pop() || '', status: 'done', url: thumb, thumbUrl: thumb, fileId: v.fileId, stored: v.url } as Item;
    })).then((list) => alive && setItems(list));
    return () => {
      alive = false;
    };
  }, [valueKey]);

  const emit = (list: Item[]) => onChange?.(list.filter((i) => i.fileId && i.stored).map((i) => ({ url: i.stored as string, fileId: i.fileId as number })));

  return (
    <>
      <Upload listType="picture-card" accept=".jpg,.jpeg,.png,image/jpeg,image/png" fileList={items} disabled={disabled}
        maxCount={maxCount} multiple
        beforeUpload={(file) => {
          const problem = checkImage(file, maxSize);
          if (problem) {
            message.warning(problem);
            return Upload.LIST_IGNORE;
          }
          return true;
        }}
        customRequest={async ({ file, onSuccess, onError }) => {
          try {
            const up = await uploadFile(file as File, funcCode);
            const done: Item = { uid: (file as any).uid, name: up.sourceFileName, status: 'done', url: up.url, thumbUrl: up.url, fileId: up.fileId, stored: up.filePath };
            setItems((prev) => {
              const next = prev.map((i) => (i.uid === done.uid ? done : i));
              emit(next);
              return next;
            });
            onSuccess?.(up);
          } catch (err) {
            setItems((prev) => prev.filter((i) => i.uid !== (file as any).uid));
            onError?.(err as Error);
          }
        }}
        onChange={({ fileList }) => setItems((prev) => fileList.map((f) => prev.find((p) => p.uid === f.uid && p.fileId) || f) as Item[])}
        onPreview={(file) => setPreview(appUrl(file.url || file.thumbUrl || ''))}
        onRemove={(file) => new Promise<boolean>((resolve) => {
          modal.confirm({
            title: t('web.image.confirmDelete'),
            okText: t('web.ok'),
            cancelText: t('web.cancel'),
            onOk: async () => {
              const item = file as Item;
              if (item.fileId) await deleteFile(item.fileId).catch(() => undefined);
              const next = items.filter((i) => i.uid !== file.uid);
              setItems(next);
              emit(next);
              resolve(true);
            },
            onCancel: () => resolve(false),
          });
        })}>
        {items.length >= maxCount ? null : <div data-testid="image-upload">+ {t('web.image.upload')}</div>}
      </Upload>
      {preview && <Image style={{ display: 'none' }} src={preview} preview={{ visible: true, onVisibleChange: (v) => !v && setPreview('') }} />}
    </>
  );
}

export default ImageUpload;
