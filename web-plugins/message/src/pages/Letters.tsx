import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { App as AntApp, Button, Popconfirm, Segmented, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { bus, useT } from '@atrium/sdk';
import { deleteMessages, findMessages, MAX_IDS, markAllRead, markRead, type Message } from '../api';
import { sendTime } from '../format';
import { inboxChanged, useInbox } from '../store';
import { useInfiniteScroll } from '../useInfinite';

type Filter = 'all' | 'unread';

/** The letters page (/letters): all or unread, mark read or unread (one letter, or the selected ones), mark all
 * read, delete; loads on scroll. */
export function Letters() {
  const t = useT('message');
  const { message } = AntApp.useApp();
  const { unread } = useInbox();
  const [filter, setFilter] = useState<Filter>('all');
  const [rows, setRows] = useState<Message[]>([]);
  const [page, setPage] = useState(0);
  const [total, setTotal] = useState(0);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(false);
  const [selected, setSelected] = useState<string[]>([]);
  const [marking, setMarking] = useState(false);
  const generation = useRef(0);

  const load = useCallback(async (pageIndex: number, which: Filter) => {
    const gen = generation.current;
    setLoading(true);
    try {
      const data = await findMessages(pageIndex, which === 'unread' ? 0 : undefined);
      if (gen !== generation.current) return;
      setRows((prev) => {
        const seen = new Set(prev.map((m) => m.msgInstanceId));
        return pageIndex === 1 ? data.list : [...prev, ...data.list.filter((m) => !seen.has(m.msgInstanceId))];
      });
      setPage(pageIndex);
      setTotal(data.total);
      setHasMore(!!data.hasMore);
    } catch {
      /* the request client has shown the error */
    } finally {
      if (gen === generation.current) setLoading(false);
    }
  }, []);

  const restart = useCallback((which: Filter) => {
    generation.current += 1;
    setRows([]);
    setHasMore(false);
    void load(1, which);
  }, [load]);

  useEffect(() => {
    setSelected([]);
    restart(filter);
  }, [filter, restart]);
  useEffect(() => bus.on('message:received', () => restart(filter)), [filter, restart]);

  const scroller = useRef<HTMLDivElement>(null);
  const onScroll = useInfiniteScroll(scroller, () => void load(page + 1, filter), hasMore && !loading);

  // what is ticked among the rows shown (a reload keeps the ticks of the rows it brings back)
  const ticked = useMemo(() => {
    const shown = new Set(rows.map((m) => m.msgInstanceId));
    return selected.filter((id) => shown.has(id));
  }, [rows, selected]);

  /** The letters' new state in the list: gone from the unread filter when read, else their tag changes. */
  const shownAs = (ids: string[], read: boolean) => {
    const changed = new Set(ids);
    if (filter === 'unread' && read) {
      setRows((prev) => prev.filter((x) => !changed.has(x.msgInstanceId)));
      setTotal((n) => n - changed.size);
      setSelected((prev) => prev.filter((id) => !changed.has(id)));
    } else {
      setRows((prev) => prev.map((x) => (changed.has(x.msgInstanceId) ? { ...x, readStatus: read ? 1 : 0 } : x)));
    }
  };

  const setRead = async (m: Message, read: boolean) => {
    await markRead([m.msgInstanceId], read);
    shownAs([m.msgInstanceId], read);
    inboxChanged();
  };

  /** The ticked letters marked read (the server takes MAX_IDS at a time), the ticks cleared. */
  const selectedRead = async () => {
    const ids = ticked;
    if (!ids.length) return;
    setMarking(true);
    let count = 0;
    try {
      for (let i = 0; i < ids.length; i += MAX_IDS) count += (await markRead(ids.slice(i, i + MAX_IDS), true)).count;
      shownAs(ids, true);
      setSelected([]);
      message.success(t('web.letters.selectedReadDone', { count }));
    } catch {
      // the request client has shown the error; an earlier batch may have gone through: the list as it is now
      restart(filter);
    } finally {
      setMarking(false);
      inboxChanged();
    }
  };

  const remove = async (m: Message) => {
    await deleteMessages([m.msgInstanceId]);
    setRows((prev) => prev.filter((x) => x.msgInstanceId !== m.msgInstanceId));
    setSelected((prev) => prev.filter((id) => id !== m.msgInstanceId));
    setTotal((n) => n - 1);
    message.success(t('web.letters.deleted'));
    inboxChanged();
  };

  const allRead = async () => {
    const { count } = await markAllRead();
    setSelected([]);
    message.success(t('web.letters.allReadDone', { count }));
    inboxChanged();
    restart(filter);
  };

  const columns: ColumnsType<Message> = [
    {
      title: t('web.letters.content'), dataIndex: 'messageContent', key: 'content',
      // the server sanitised this HTML (nh3) before storing and again before answering
      render: (html: string) => <div className="at-letter-content at-prose" dangerouslySetInnerHTML={{ __html: html }} />,
    },
    { title: t('web.letters.sendTime'), dataIndex: 'sendTime', key: 'sendTime', width: 160, render: (v: string) => sendTime(v) },
    {
      title: t('web.letters.state'), dataIndex: 'readStatus', key: 'state', width: 100,
      render: (v: number) => (v ? <Tag>{t('web.letters.read')}</Tag> : <Tag color="blue">{t('web.letters.unread')}</Tag>),
    },
    {
      title: t('web.letters.action'), key: 'action', width: 200,
      render: (_: unknown, m) => (
        <Space size="small">
          <Button size="small" type="link" onClick={() => void setRead(m, !m.readStatus)} data-testid="letter-toggle-read">
            {m.readStatus ? t('web.letters.markUnread') : t('web.letters.markRead')}
          </Button>
          <Popconfirm title={t('web.letters.deleteConfirm')} okText={t('web.letters.delete')} cancelText={t('web.cancel')}
            onConfirm={() => remove(m)}>
            <Button size="small" type="link" danger data-testid="letter-delete">{t('web.letters.delete')}</Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <div className="at-page" data-testid="letters-page" style={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <Space style={{ justifyContent: 'space-between', width: '100%', marginBottom: 12 }} wrap>
        <Space>
          <Typography.Title level={4} style={{ margin: 0 }}>{t('web.letters.title')}</Typography.Title>
          <Segmented<Filter>
            value={filter}
            onChange={setFilter}
            options={[
              { label: t('web.letters.all'), value: 'all' },
              { label: t('web.letters.unreadOnly', { count: unread }), value: 'unread' },
            ]}
            data-testid="letters-filter"
          />
        </Space>
        <Space>
          <Typography.Text type="secondary" data-testid="letters-count">{t('web.letters.count', { shown: rows.length, total })}</Typography.Text>
          <Button onClick={() => void selectedRead()} disabled={!ticked.length} loading={marking} data-testid="letters-selected-read">
            {ticked.length ? t('web.letters.selectedReadCount', { count: ticked.length }) : t('web.letters.selectedRead')}
          </Button>
          <Button onClick={() => void allRead()} disabled={!unread} data-testid="letters-all-read">{t('web.letters.allRead')}</Button>
        </Space>
      </Space>
      <div ref={scroller} onScroll={onScroll} style={{ flex: 1, minHeight: 240, maxHeight: 'calc(100vh - 230px)', overflowY: 'auto' }} data-testid="letters-scroll">
        <Table<Message>
          rowKey="msgInstanceId"
          rowSelection={{
            selectedRowKeys: ticked,
            onChange: (keys) => setSelected(keys.map(String)),
            // antd names the boxes in English ("Select row 1"): named here in the reader's language
            getCheckboxProps: (m) => ({ 'aria-label': t('web.letters.selectOne', { time: sendTime(m.sendTime) }) }),
            getTitleCheckboxProps: () => ({ 'aria-label': t('web.letters.selectAll') }),
          }}
          size="middle"
          columns={columns}
          dataSource={rows}
          pagination={false}
          loading={loading && rows.length === 0}
          rowClassName={(m) => (m.readStatus ? 'at-letter-read' : 'at-letter-unread')}
          onRow={(m) => ({ 'data-testid': 'letter-row', 'data-read': m.readStatus } as any)}
          footer={() => (
            <Typography.Text type="secondary">
              {loading ? t('web.letters.loading') : hasMore ? t('web.letters.scrollMore') : t('web.letters.end')}
            </Typography.Text>
          )}
        />
      </div>
    </div>
  );
}
