/** Who may view, export and manage the panel (manage ⊃ export ⊃ view), per user and role. */
import { App, Button, Checkbox, Modal, Select, Spin, Table, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { designerApi } from './api';
import type { Grant, Subjects, SubjectType } from './types';
import { useDsT } from './i18n';

type Right = 'view' | 'export' | 'manage';
const RIGHTS: Right[] = ['view', 'export', 'manage'];

/** A right switched on brings the lesser ones; switched off takes the greater ones. */
export function setRight(grant: Grant, right: Right, on: boolean): Grant {
  const rank = RIGHTS.indexOf(right);
  const next = { ...grant };
  RIGHTS.forEach((r, i) => {
    if (on && i <= rank) next[r] = true;
    if (!on && i >= rank) next[r] = false;
  });
  return next;
}

const keyOf = (g: Pick<Grant, 'subjectType' | 'subjectId'>) => `${g.subjectType}:${g.subjectId}`;

export function PrivilegesDialog({ panelId, open, onClose }: { panelId: string; open: boolean; onClose: () => void }) {
  const { t } = useDsT();
  const { message } = App.useApp();
  const [grants, setGrants] = useState<Grant[] | null>(null);
  const [subjects, setSubjects] = useState<Subjects>({ users: [], roles: [] });
  const [keyword, setKeyword] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    setGrants(null);
    designerApi.grants(panelId).then((g) => setGrants(Array.isArray(g) ? g : g?.grants || [])).catch((e: Error) => message.error(e.message));
  }, [open, panelId, message]);
  useEffect(() => {
    if (!open) return undefined;
    const timer = setTimeout(() => designerApi.subjects(keyword).then(setSubjects).catch(() => undefined), 250);
    return () => clearTimeout(timer);
  }, [open, keyword]);

  const nameOf = (g: Grant) =>
    g.subjectName ||
    (g.subjectType === 'user' ? subjects.users.find((u) => String(u.id) === String(g.subjectId))?.name : subjects.roles.find((r) => String(r.id) === String(g.subjectId))?.name) ||
    String(g.subjectId);
  const add = (value: string) => {
    const [subjectType, subjectId] = value.split(':') as [SubjectType, string];
    const name = subjectType === 'user' ? subjects.users.find((u) => String(u.id) === subjectId)?.name : subjects.roles.find((r) => String(r.id) === subjectId)?.name;
    setGrants((list) => (list || []).some((g) => keyOf(g) === value) ? list : [...(list || []), { subjectType, subjectId, subjectName: name, view: true, export: false, manage: false }]);
    setKeyword('');
  };
  const save = async () => {
    setBusy(true);
    try {
      await designerApi.saveGrants(panelId, (grants || []).map(({ subjectName: _n, ...g }) => g));
      message.success(t('privileges.saved'));
      onClose();
    } catch (e) {
      message.error((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const options = [
    { label: t('privileges.users'), options: subjects.users.map((u) => ({ value: `user:${u.id}`, label: `${u.name}${u.account ? ` (${u.account})` : ''}` })) },
    { label: t('privileges.roles'), options: subjects.roles.map((r) => ({ value: `role:${r.id}`, label: r.name })) },
  ];

  return (
    <Modal open={open} title={t('privileges.title')} onCancel={onClose} onOk={() => void save()} okText={t('common.save')} cancelText={t('common.cancel')} confirmLoading={busy} okButtonProps={{ disabled: !grants, 'data-testid': 'privileges-save' }} width={640} destroyOnHidden>
      {!grants ? <Spin /> : (
        <div data-testid="privileges-dialog">
          <Select
            showSearch
            filterOption={false}
            data-testid="privileges-add"
            style={{ width: '100%', marginBottom: 12 }}
            placeholder={t('privileges.add')}
            value={null}
            onSearch={setKeyword}
            options={options}
            onChange={(v: string) => add(v)}
          />
          <Table<Grant>
            size="small"
            rowKey={keyOf}
            pagination={false}
            dataSource={grants}
            locale={{ emptyText: t('privileges.none') }}
            columns={[
              { title: t('privileges.subject'), render: (_, g) => <span><Tag>{t(`privileges.${g.subjectType}`)}</Tag>{nameOf(g)}</span> },
              ...RIGHTS.map((r) => ({
                title: t(`privileges.${r}`),
                width: 80,
                render: (_: unknown, g: Grant) => (
                  <Checkbox data-testid={`grant-${keyOf(g)}-${r}`} checked={g[r]} onChange={(e) => setGrants((list) => (list || []).map((x) => (keyOf(x) === keyOf(g) ? setRight(x, r, e.target.checked) : x)))} />
                ),
              })),
              { title: '', width: 70, render: (_, g) => <Button size="small" type="link" danger onClick={() => setGrants((list) => (list || []).filter((x) => keyOf(x) !== keyOf(g)))}>{t('common.remove')}</Button> },
            ]}
          />
        </div>
      )}
    </Modal>
  );
}
