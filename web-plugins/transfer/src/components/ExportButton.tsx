/** A button that runs an asynchronous export (spec 4): loading while the task runs, then the download.
 * Exposed as `./ExportButton`. */
import { useState, type ReactNode } from 'react';
import { Button, type ButtonProps } from 'antd';
import { useT } from '@atrium/sdk';
import { runDataExport, type DataExportOptions } from '../exportTask';

export interface ExportButtonProps extends Omit<ButtonProps, 'onClick' | 'loading'> {
  options: DataExportOptions | (() => DataExportOptions);
  children?: ReactNode;
  onDone?: () => void;
}

export function ExportButton({ options, children, onDone, ...rest }: ExportButtonProps) {
  const t = useT('transfer');
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState(0);
  const run = async () => {
    setBusy(true);
    setProgress(0);
    try {
      const opts = typeof options === 'function' ? options() : options;
      await runDataExport({ ...opts, onProgress: (r) => setProgress(r.progress ?? 0) });
      onDone?.();
    } catch {
      /* the flow showed the message */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button {...rest} loading={busy} onClick={run}>
      {children || t('web.export.button')}{busy && progress > 0 ? ` ${progress}%` : ''}
    </Button>
  );
}

export default ExportButton;
