import { useEffect, useState } from 'react';
import { Button, Card, Input, List, Space } from 'antd';
import { definePlugin, request, type PluginRouteProps } from '@atrium/sdk';

interface Note {
  id: number;
  text: string;
}

function NotesPage(_props: PluginRouteProps) {
  const [notes, setNotes] = useState<Note[]>([]);
  const [text, setText] = useState('');
  const load = () => request<Note[]>('/api/{{name}}/notes').then(setNotes);
  useEffect(() => {
    load();
  }, []);
  const add = async () => {
    await request('/api/{{name}}/notes', { method: 'POST', data: { text } });
    setText('');
    load();
  };
  return (
    <Card title="{{title}}">
      <Space.Compact style={{ width: '100%', marginBottom: 16 }}>
        <Input value={text} maxLength={200} onChange={(e) => setText(e.target.value)} />
        <Button type="primary" onClick={add} disabled={!text.trim()}>
          +
        </Button>
      </Space.Compact>
      <List bordered dataSource={notes} renderItem={(n) => <List.Item>{n.text}</List.Item>} />
    </Card>
  );
}

export default definePlugin({
  name: '{{name}}',
  routes: [{ path: '/{{name}}', Component: NotesPage }],
});
