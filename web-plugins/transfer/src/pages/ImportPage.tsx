/** /data-transfer/import: choose what to import, run the wizard or the one-step import, see the history;
 * the demo contacts can be exported to Excel or summarised in Word from here. */
import { useEffect, useRef, useState } from 'react';
import { Card, Select, Space, Tabs, Button } from 'antd';
import { saveBlob, useT } from '@atrium/sdk';
import { targets as loadTargets, templateBlob, type ImportTarget } from '../api';
import { ExportButton } from '../components/ExportButton';
import { ImportHistory, type ImportHistoryHandle } from '../components/ImportHistory';
import { ImportButton, ImportWizard } from '../components/ImportWizard';
import { WordExport } from '../components/WordExport';

export function ImportPage() {
  const t = useT('transfer');
  const [list, setList] = useState<ImportTarget[]>([]);
  const [importId, setImportId] = useState<string>('');
  const historyRef = useRef<ImportHistoryHandle>(null);
  useEffect(() => {
    loadTargets().then((l) => {
      setList(l);
      const preferred = l.find((x) => x.importId === 'contacts') || l[0];
      if (preferred) setImportId((v) => v || preferred.importId);
    }, () => setList([]));
  }, []);
  const target = list.find((x) => x.importId === importId);
  const template = async () => {
    if (!target) return;
    saveBlob(await templateBlob(target.importId), `${target.name}.xlsx`);
  };
  const refresh = () => historyRef.current?.reload();

  return (
    <div className="at-page" style={{ padding: 16 }}>
      <Card>
        <Space wrap style={{ marginBottom: 16 }}>
          <span>{t('web.import.target')}</span>
          <Select style={{ width: 220 }} value={importId || undefined} onChange={setImportId} aria-label={t('web.import.target')} data-testid="import-target"
            options={list.map((x) => ({ value: x.importId, label: x.name }))} />
          <Button onClick={template} disabled={!target}>{t('web.import.template')}</Button>
          {importId && <ImportButton importId={importId} onFinished={refresh} />}
          {importId === 'contacts' && (
            <>
              <ExportButton data-testid="export-contacts" options={{
                url: 'api/transfer/contacts/exportData', fileName: 'contacts',
                columnList: (target?.fields || []).map((f) => ({ title: f.label, key: f.key })),
              }}>{t('web.export.contacts')}</ExportButton>
              <WordExport tempCode="contacts-summary" params={{ title: t('web.word.contactsTitle') }} data-testid="word-contacts">
                {t('web.word.contacts')}
              </WordExport>
            </>
          )}
        </Space>
        {importId && (
          <Tabs items={[
            { key: 'wizard', label: t('web.import.wizard'), children: <ImportWizard key={importId} importId={importId} onFinished={refresh} /> },
            { key: 'history', label: t('web.import.history'), children: <ImportHistory ref={historyRef} importId={importId} /> },
          ]} />
        )}
      </Card>
    </div>
  );
}
