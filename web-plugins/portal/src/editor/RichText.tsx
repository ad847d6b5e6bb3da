import { useEffect } from 'react';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Button, Divider, Space, Tooltip } from 'antd';
import { useT } from '@atrium/sdk';

interface Props {
  /** HTML (the server sanitises it again when the article is saved). */
  value?: string;
  onChange?: (html: string) => void;
}

interface Tool {
  key: string;
  label: string;
  active: (e: Editor) => boolean;
  run: (e: Editor) => void;
}

const TOOLS: Tool[] = [
  { key: 'bold', label: 'B', active: (e) => e.isActive('bold'), run: (e) => e.chain().focus().toggleBold().run() },
  { key: 'italic', label: 'I', active: (e) => e.isActive('italic'), run: (e) => e.chain().focus().toggleItalic().run() },
  { key: 'underline', label: 'U', active: (e) => e.isActive('underline'), run: (e) => e.chain().focus().toggleUnderline().run() },
  { key: 'strike', label: 'S', active: (e) => e.isActive('strike'), run: (e) => e.chain().focus().toggleStrike().run() },
  { key: 'heading', label: 'H2', active: (e) => e.isActive('heading', { level: 2 }), run: (e) => e.chain().focus().toggleHeading({ level: 2 }).run() },
  { key: 'bulletList', label: '•', active: (e) => e.isActive('bulletList'), run: (e) => e.chain().focus().toggleBulletList().run() },
  { key: 'orderedList', label: '1.', active: (e) => e.isActive('orderedList'), run: (e) => e.chain().focus().toggleOrderedList().run() },
  { key: 'blockquote', label: '“', active: (e) => e.isActive('blockquote'), run: (e) => e.chain().focus().toggleBlockquote().run() },
];

/** The article's rich text (Tiptap): a toolbar of marks and blocks over an editable page, as HTML. */
export function RichText({ value = '', onChange }: Props) {
  const t = useT('portal');
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: { openOnClick: false } })],
    content: value,
    immediatelyRender: true,
    onUpdate: ({ editor: e }) => onChange?.(e.isEmpty ? '' : e.getHTML()),
  });
  const active = useEditorState({ editor, selector: ({ editor: e }) => Object.fromEntries(TOOLS.map((tool) => [tool.key, tool.active(e)])) });
  useEffect(() => {
    if (editor.getHTML() !== value && !(editor.isEmpty && !value)) editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);
  return (
    <div className="at-rich-text" data-testid="article-content-editor" style={{ border: '1px solid #d9d9d9', borderRadius: 6 }}>
      <Space size={2} wrap style={{ padding: 4, borderBottom: '1px solid #f0f0f0', width: '100%' }} role="toolbar" aria-label={t('web.content')}>
        {TOOLS.map((tool, i) => (
          <span key={tool.key}>
            {i === 4 && <Divider type="vertical" />}
            <Tooltip title={t(`web.editor.${tool.key}`)}>
              <Button size="small" type={active[tool.key] ? 'primary' : 'text'} aria-label={t(`web.editor.${tool.key}`)} aria-pressed={active[tool.key]}
                onMouseDown={(ev) => ev.preventDefault()} onClick={() => tool.run(editor)} data-testid={`editor-${tool.key}`}>
                {tool.label}
              </Button>
            </Tooltip>
          </span>
        ))}
      </Space>
      <EditorContent editor={editor} className="at-article" style={{ minHeight: 180, padding: '4px 11px' }} />
    </div>
  );
}
