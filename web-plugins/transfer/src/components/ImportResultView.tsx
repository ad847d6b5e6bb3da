import { Alert, Descriptions, Space } from 'antd';
import { useT } from '@atrium/sdk';
import { downloadStored, type ImportResult } from '../api';

/** Total, successes, failures, the check message and the failed-rows Excel (spec 8). */
export function ImportResultView({ result }: { result: ImportResult }) {
  const t = useT('transfer');
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="import-result">
      {result.errorMsg && <Alert type="error" showIcon message={result.errorMsg} />}
      {result.checkMsg && <Alert type={result.status === 2 ? 'warning' : 'info'} showIcon message={result.checkMsg} />}
      <Descriptions bordered size="small" column={3}>
        <Descriptions.Item label={t('web.import.total')}><span data-testid="import-total">{result.totalCount}</span></Descriptions.Item>
        <Descriptions.Item label={t('web.import.success')}><span data-testid="import-success">{result.successCount}</span></Descriptions.Item>
        <Descriptions.Item label={t('web.import.failed')}><span data-testid="import-failed">{result.failCount}</span></Descriptions.Item>
      </Descriptions>
      {result.hasExcel && (
        <a data-testid="import-failed-file" onClick={() => downloadStored(`failed-${result.batch}.xlsx`, result.excelUrl)}>
          {t('web.import.downloadFailed')}
        </a>
      )}
    </Space>
  );
}
