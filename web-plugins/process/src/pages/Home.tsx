import { useCallback, useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { App, Button, Input, Modal, Popconfirm, Space, Table, Tabs, Tag, Typography, Upload } from 'antd';
import { RequestError, useHasButton, useT } from '@atrium/sdk';
import { parseVariables, processApi, when, type InstanceRow, type ModelInfo, type Problem, type TaskRow } from '../api';
import { FILE_TYPES, hasFileType } from './nodeModel';
import { StartModal } from './StartForm';

const BASE = '/process_manage';

function errorText(e: unknown): string {
  if (e instanceof RequestError) {
    const errs = (e.data as { errors?: Problem[] } | null)?.errors;
    return errs?.length ? errs.map((p) => p.message).join('; ') : e.message;
  }
  return String(e);
}

function VariablesModal({ title, open, onOk, onCancel, withComment }: {
  title: string; open: boolean; withComment?: boolean; onCancel: () => void;
  onOk: (variables: Record<string, unknown>, comment: string) => Promise<void>;
}) {
  const t = useT('process');
  const { message } = App.useApp();
  const [text, setText] = useState('');
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => { if (open) { setText(''); setComment(''); } }, [open]);
  const submit = async () => {
    const vars = parseVariables(text);
    if (!vars) { message.error(t('web.variablesInvalid')); return; }
    setBusy(true);
    try { await onOk(vars, comment); } finally { setBusy(false); }
  };
  return (
    <Modal title={title} open={open} onCancel={onCancel} onOk={submit} confirmLoading={busy} destroyOnHidden okButtonProps={{ 'data-testid': 'process-modal-ok' } as any}>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Input.TextArea rows={4} value={text} onChange={(e) => setText(e.target.value)} placeholder={t('web.variables')} data-testid="process-variables" />
        {withComment && <Input.TextArea rows={2} value={comment} onChange={(e) => setComment(e.target.value)} placeholder={t('web.comment')} data-testid="process-comment" />}
      </Space>
    </Modal>
  );
}

function Models() {
  const t = useT('process');
  const navigate = useNavigate();
  const canDesign = useHasButton('process:design');
  const canDeploy = useHasButton('process:deploy');
  const { message } = App.useApp();
  const [rows, setRows] = useState<ModelInfo[]>([]);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(1);
  const [keyword, setKeyword] = useState('');
  const [starting, setStarting] = useState<ModelInfo | null>(null);
  const load = useCallback(() => { processApi.models(keyword, page).then((d) => { setRows(d.list); setTotal(d.total); }, () => undefined); }, [keyword, page]);
  useEffect(load, [load]);
  const deploy = async (m: ModelInfo) => {
    try { await processApi.deploy(m.modelId); message.success(t('web.deployed')); load(); } catch (e) { message.error(errorText(e)); }
  };
  const importFile = async (file: File) => {
    if (!hasFileType(file.name)) { message.error(t('rule.file_type', { types: FILE_TYPES.join(', ') })); return false; }
    const xml = await file.text();
    const key = file.name.replace(/\.(bpmn|xml)$/i, '').replace(/[^A-Za-z0-9_-]/g, '_');
    try { await processApi.importFile({ fileName: file.name, key, name: key, xml }); load(); } catch (e) { message.error(errorText(e)); }
    return false;
  };
  return (
    <>
      <Space style={{ marginBottom: 12 }}>
        <Input.Search allowClear placeholder={t('web.key')} onSearch={(v) => { setPage(1); setKeyword(v.trim()); }} style={{ width: 240 }} />
        {canDesign && (
          <>
            <Button type="primary" onClick={() => navigate(`${BASE}/design/new`)} data-testid="process-new-model">{t('web.newModel')}</Button>
            <Upload accept={FILE_TYPES.join(',')} showUploadList={false} beforeUpload={(f) => importFile(f as File)}><Button>{t('web.import')}</Button></Upload>
          </>
        )}
      </Space>
      <Table<ModelInfo> rowKey="modelId" size="small" dataSource={rows}
        pagination={{ current: page, total, pageSize: 20, onChange: setPage, showSizeChanger: false }}
        onRow={(m) => ({ 'data-testid': `process-model-${m.key}` } as any)}
        columns={[
          { title: t('web.key'), dataIndex: 'key', render: (key: string) => <Typography.Text code>{key}</Typography.Text> },
          { title: t('web.name'), dataIndex: 'name' },
          { title: t('web.category'), dataIndex: 'category' },
          { title: t('web.version'), dataIndex: 'latestVersion' },
          { title: t('web.deployedVersion'), dataIndex: 'deployedVersion', render: (v) => (v ? <Tag color="green" bordered={false}>v{v}</Tag> : <Tag bordered={false}>{t('web.notDeployed')}</Tag>) },
          { title: t('web.createdAt'), dataIndex: 'updatedAt', render: when },
          {
            title: t('web.actions'), key: 'a', render: (_, m) => (
              <Space size={4}>
                {canDesign && <Button size="small" type="link" onClick={() => navigate(`${BASE}/design/${m.modelId}`)}>{t('web.design')}</Button>}
                {canDeploy && (
                  <Popconfirm title={t('web.deployTitle')} description={t('web.deployConfirm', { name: m.name || m.key })}
                    okText={t('web.deploy')} cancelText={t('web.cancel')} onConfirm={() => deploy(m)}>
                    <Button size="small" type="link" data-testid={`process-deploy-${m.key}`}>{t('web.deploy')}</Button>
                  </Popconfirm>
                )}
                <Button size="small" type="link" disabled={!m.deployedVersion} onClick={() => setStarting(m)} data-testid={`process-start-${m.key}`}>{t('web.start')}</Button>
              </Space>
            ),
          },
        ]} />
      <StartModal model={starting} onClose={() => setStarting(null)} />
    </>
  );
}

function Tasks() {
  const t = useT('process');
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [pending, setPending] = useState<TaskRow[]>([]);
  const [upcoming, setUpcoming] = useState<TaskRow[]>([]);
  const [acting, setActing] = useState<{ task: TaskRow; kind: 'complete' | 'reject' } | null>(null);
  const load = useCallback(() => {
    processApi.pending(1, 100).then((d) => setPending(d.list), () => undefined);
    processApi.upcoming(1, 100).then((d) => setUpcoming(d.list), () => undefined);
  }, []);
  useEffect(load, [load]);
  const columns = [
    { title: t('web.task'), dataIndex: 'name' },
    { title: t('web.process'), dataIndex: 'modelName', render: (v: string, r: TaskRow) => <a onClick={() => navigate(`${BASE}/instance/${r.processId}`)}>{v} #{r.processId}</a> },
    { title: t('web.createdAt'), dataIndex: 'createdAt', render: when },
  ];
  return (
    <>
      <h4>{t('web.pending')}</h4>
      <Table<TaskRow> rowKey="taskId" size="small" dataSource={pending} pagination={false} data-testid="process-pending"
        onRow={(r) => ({ 'data-testid': `process-task-${r.nodeId}` } as any)}
        columns={[...columns, {
          title: t('web.actions'), key: 'a', render: (_: unknown, r: TaskRow) => (
            <Space size={4}>
              {r.claimedBy == null && <Button size="small" type="link" onClick={() => processApi.claim(r.taskId).then(load)}>{t('web.claim')}</Button>}
              <Button size="small" type="link" onClick={() => setActing({ task: r, kind: 'complete' })} data-testid="process-complete">{t('web.complete')}</Button>
              <Button size="small" type="link" danger onClick={() => setActing({ task: r, kind: 'reject' })} data-testid="process-reject">{t('web.reject')}</Button>
            </Space>
          ),
        }]} />
      <h4 style={{ marginTop: 16, marginBottom: 0 }} data-testid="process-upcoming-title">{t('web.upcoming')}</h4>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginBottom: 8 }}>{t('web.upcomingHint')}</Typography.Paragraph>
      <Table<TaskRow> rowKey="taskId" size="small" dataSource={upcoming} pagination={false} columns={columns} data-testid="process-upcoming" />
      <VariablesModal withComment open={!!acting} title={acting ? `${t(acting.kind === 'complete' ? 'web.complete' : 'web.reject')}: ${acting.task.name}` : ''}
        onCancel={() => setActing(null)}
        onOk={async (vars, comment) => {
          if (!acting) return;
          try {
            if (acting.kind === 'complete') await processApi.complete(acting.task.taskId, vars, comment);
            else await processApi.reject(acting.task.taskId, comment);
            message.success(t('web.done'));
          } finally { setActing(null); load(); }
        }} />
    </>
  );
}

function Mine() {
  const t = useT('process');
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [rows, setRows] = useState<InstanceRow[]>([]);
  const load = useCallback(() => { processApi.mine(1, 100).then((d) => setRows(d.list), () => undefined); }, []);
  useEffect(load, [load]);
  const withdraw = async (r: InstanceRow) => {
    try {
      await processApi.withdraw(r.processId);
      message.success(t('web.withdrawn'));
    } catch {
      /* the request client has shown the error */
    } finally {
      load();
    }
  };
  return (
    <Table<InstanceRow> rowKey="processId" size="small" dataSource={rows} pagination={false} data-testid="process-mine"
      onRow={(r) => ({ 'data-testid': `process-instance-${r.processId}` } as any)}
      columns={[
        { title: '#', dataIndex: 'processId' },
        { title: t('web.name'), dataIndex: 'modelName' },
        { title: t('web.status'), dataIndex: 'status', render: (s) => <Tag bordered={false} data-testid="process-status">{t(`web.st_${s}`)}</Tag> },
        { title: t('web.createdAt'), dataIndex: 'createdAt', render: when },
        {
          title: t('web.actions'), key: 'a', render: (_, r) => (
            <Space size={4}>
              <Button size="small" type="link" onClick={() => navigate(`${BASE}/instance/${r.processId}`)}>{t('web.history')}</Button>
              {r.status === 'running' && (
                <Popconfirm title={t('web.withdrawTitle', { name: `${r.modelName} #${r.processId}` })} description={t('web.withdrawConfirm')}
                  okText={t('web.withdraw')} okButtonProps={{ danger: true }} cancelText={t('web.cancel')} onConfirm={() => withdraw(r)}>
                  <Button size="small" type="link" danger data-testid="process-withdraw">{t('web.withdraw')}</Button>
                </Popconfirm>
              )}
            </Space>
          ),
        },
      ]} />
  );
}

/** `/process_manage`: models, my tasks, my process. */
export function HomePage() {
  const t = useT('process');
  const { search } = useLocation();
  const navigate = useNavigate();
  const tab = new URLSearchParams(search).get('tab') || 'models';
  return (
    <Tabs activeKey={tab} onChange={(k) => navigate(`${BASE}?tab=${k}`)} destroyOnHidden items={[
      { key: 'models', label: t('web.models'), children: <Models /> },
      { key: 'tasks', label: <span data-testid="process-tab-tasks">{t('web.myTasks')}</span>, children: <Tasks /> },
      { key: 'mine', label: <span data-testid="process-tab-mine">{t('web.process')}</span>, children: <Mine /> },
    ]} />
  );
}
