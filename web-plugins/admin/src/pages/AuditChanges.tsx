import { Typography } from 'antd';
import type { AuditChange } from './auditApi';

/** The changed fields of a record, one a line: `field: old → new`. */
export function AuditChanges({ changes, empty }: { changes: AuditChange[]; empty: string }) {
  if (!changes.length) return <Typography.Text type="secondary">{empty}</Typography.Text>;
  return (
    <div data-testid="audit-changes">
      {changes.map((c) => (
        <div key={c.field} style={{ lineHeight: '20px' }}>
          <Typography.Text strong>{c.label}</Typography.Text>
          {': '}
          <Typography.Text delete={c.before !== '' && c.after !== ''} type="secondary">{c.before}</Typography.Text>
          {' → '}
          <Typography.Text>{c.after}</Typography.Text>
        </div>
      ))}
    </div>
  );
}
