/** Picture upload through the files plugin (spec 5, 7.3): jpg, jpeg or png, at most 2 MB. */
import { App, Button, Upload } from 'antd';
import { useState } from 'react';
import { designerApi } from './api';
import { useDsT } from './i18n';

export const PICTURE_MAX_BYTES = 2097152;
export const PICTURE_TYPES = ['image/jpeg', 'image/png'];

/** Why a file cannot be a report picture, or null. */
export function pictureProblem(file: { type: string; name: string; size: number }): 'type' | 'size' | null {
  const typeOk = PICTURE_TYPES.includes(file.type) && /\.(jpe?g|png)$/i.test(file.name);
  if (!typeOk) return 'type';
  if (file.size > PICTURE_MAX_BYTES) return 'size';
  return null;
}

export function PictureUpload({ onUploaded, testId }: { onUploaded: (url: string) => void; testId: string }) {
  const { t } = useDsT();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  return (
    <Upload
      accept=".jpg,.jpeg,.png,image/jpeg,image/png"
      showUploadList={false}
      beforeUpload={(file) => {
        const problem = pictureProblem(file);
        if (problem) {
          message.warning(t(problem === 'type' ? 'picture.wrongType' : 'picture.tooBig'));
          return Upload.LIST_IGNORE;
        }
        setBusy(true);
        designerApi
          .uploadPicture(file)
          .then((r) => onUploaded(r.filePath || r.url || ''))
          .catch((e: Error) => message.error(e.message))
          .finally(() => setBusy(false));
        return false;
      }}
    >
      <Button size="small" loading={busy} data-testid={testId}>{t('picture.upload')}</Button>
    </Upload>
  );
}
