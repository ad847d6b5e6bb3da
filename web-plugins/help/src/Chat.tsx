import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Empty, Input, Tag, Typography } from 'antd';
import { appUrl, useT } from '@atrium/sdk';
import { MAX_PROMPT, streamChat } from './api';
import { chat, useChat, type Turn } from './store';

let nextId = 1;
const controllers = new Map<number, AbortController>();

/** Sends a question and streams its answer into the shared chat. */
async function ask(question: string, texts: { failed: string; timeout: string }): Promise<void> {
  const id = nextId++;
  const turn: Turn = { id, question, answer: '', passages: [], status: 'streaming' };
  chat.set({ turns: [...chat.get().turns, turn] });
  const controller = new AbortController();
  controllers.set(id, controller);
  try {
    await streamChat(
      { prompt: question, session: chat.get().session },
      {
        onMeta: (meta) => chat.update(id, () => ({ passages: meta.passages, mode: meta.mode })),
        onToken: (text) => chat.update(id, (t) => ({ answer: t.answer + text })),
        onError: (msg) => chat.update(id, () => ({ status: 'error', error: msg })),
      },
      controller.signal,
      texts.timeout,
    );
    chat.update(id, (t) => ({ status: t.status === 'streaming' ? (controller.signal.aborted ? 'stopped' : 'done') : t.status }));
  } catch (err) {
    chat.update(id, () => ({ status: 'error', error: (err as Error)?.message || texts.failed }));
  } finally {
    controllers.delete(id);
  }
}

export function stopAll(): void {
  controllers.forEach((c) => c.abort());
}

function TurnView({ turn, t }: { turn: Turn; t: ReturnType<typeof useT> }) {
  const streaming = turn.status === 'streaming';
  return (
    <div className="at-help-turn" data-testid="chat-turn" data-status={turn.status}>
      <div style={{ textAlign: 'right', margin: '8px 0' }}>
        <Typography.Text style={{ background: 'var(--at-primary, #204BE3)', color: '#fff', padding: '6px 10px', borderRadius: 8, display: 'inline-block', maxWidth: '85%', textAlign: 'left', whiteSpace: 'pre-wrap' }}>
          {turn.question}
        </Typography.Text>
      </div>
      <div style={{ background: 'var(--at-panel-alt, rgba(0,0,0,0.04))', padding: '8px 10px', borderRadius: 8 }}>
        {turn.mode === 'passages' && <Tag color="gold" data-testid="chat-passages-only">{t('web.passagesOnly')}</Tag>}
        <div data-testid="chat-answer" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
          {turn.answer}
          {streaming && <span className="at-help-caret" aria-hidden>▍</span>}
        </div>
        {turn.status === 'stopped' && <Typography.Text type="secondary">{t('web.stopped')}</Typography.Text>}
        {turn.error && <Alert type="error" showIcon title={turn.error} style={{ marginTop: 8 }} data-testid="chat-error" />}
        {!streaming && turn.passages.length > 0 && (
          <div style={{ marginTop: 8 }} data-testid="chat-sources">
            <Typography.Text type="secondary">{t('web.sources')}:</Typography.Text>
            <ol style={{ margin: '4px 0 0', paddingInlineStart: 20 }}>
              {turn.passages.map((p) => (
                <li key={p.index}>
                  {p.source === 'help' ? <a href={appUrl(`/help-center?doc=${encodeURIComponent(p.docId)}`)}>{p.title}</a> : p.url ? <a href={p.url}>{p.title}</a> : p.title}
                </li>
              ))}
            </ol>
          </div>
        )}
      </div>
    </div>
  );
}

/** The knowledge chat: questions, answers streamed token by token, stop and retry. */
export function Chat({ compact = false }: { compact?: boolean }) {
  const t = useT('help');
  const { turns } = useChat();
  const [draft, setDraft] = useState('');
  const bottom = useRef<HTMLDivElement>(null);
  const last = turns[turns.length - 1];
  const busy = last?.status === 'streaming';
  const texts = { failed: t('web.failed'), timeout: t('web.timeout') };
  const tooLong = draft.length > MAX_PROMPT;

  useEffect(() => {
    bottom.current?.scrollIntoView?.({ block: 'end' });
  }, [turns]);

  const send = () => {
    const question = draft.trim();
    if (!question || busy || tooLong) return;
    setDraft('');
    void ask(question, texts);
  };

  return (
    <div data-testid="help-chat" style={{ display: 'flex', flexDirection: 'column', minHeight: compact ? 0 : 320, flex: 1 }}>
      <div style={{ flex: 1, overflowY: 'auto', padding: '4px 0' }} data-testid="chat-turns">
        {turns.length === 0 ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('web.welcome')} /> : turns.map((turn) => <TurnView key={turn.id} turn={turn} t={t} />)}
        <div ref={bottom} />
      </div>
      <div style={{ borderTop: '1px solid var(--at-border, #eee)', paddingTop: 8 }}>
        <Input.TextArea
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onPressEnter={(e) => {
            if (!e.shiftKey) {
              e.preventDefault();
              send();
            }
          }}
          autoSize={{ minRows: 2, maxRows: 6 }}
          placeholder={t('web.placeholder')}
          status={tooLong ? 'error' : undefined}
          data-testid="chat-input"
          aria-label={t('web.placeholder')}
        />
        {tooLong && <Typography.Text type="danger">{t('web.tooLong', { max: MAX_PROMPT })}</Typography.Text>}
        <div style={{ display: 'flex', gap: 8, justifyContent: 'flex-end', marginTop: 8 }}>
          {turns.length > 0 && !busy && (
            <Button size="small" onClick={() => chat.reset()} data-testid="chat-clear">{t('web.clear')}</Button>
          )}
          {last && !busy && (
            <Button size="small" onClick={() => void ask(last.question, texts)} data-testid="chat-retry">{t('web.retry')}</Button>
          )}
          {busy ? (
            <Button size="small" danger onClick={stopAll} data-testid="chat-stop">{t('web.stop')}</Button>
          ) : (
            <Button size="small" type="primary" onClick={send} disabled={!draft.trim() || tooLong} data-testid="chat-send">{t('web.send')}</Button>
          )}
        </div>
      </div>
    </div>
  );
}
