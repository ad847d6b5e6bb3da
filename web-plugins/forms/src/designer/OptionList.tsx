/**
 * A field's choices (or a sub-table's columns) as a list: one row each, edited and removed on its own, and a
 * box under them that adds what is typed there (Enter, the add button, or leaving the box). A list pasted with
 * commas or line breaks adds one row per item; typed, each item is added as its comma is typed (the last one as
 * the box is left). A row's own text may hold a comma.
 */
import { useState } from 'react';
import { Button, Input, Space } from 'antd';

/** What separates the items of a pasted list (also the Chinese commas). */
const SEPARATORS = /[,\n，、]/;

function items(text: string): string[] {
  return text.split(SEPARATORS).map((s) => s.trim()).filter(Boolean);
}

export interface OptionListProps {
  /** the field's index on the canvas (the test ids) */
  index: number;
  values: string[];
  disabled?: boolean;
  /** the add box's placeholder, the add and remove buttons' texts */
  placeholder: string;
  addText: string;
  removeText: string;
  onChange: (values: string[]) => void;
}

export function OptionList({ index, values, disabled = false, placeholder, addText, removeText, onChange }: OptionListProps) {
  const [draft, setDraft] = useState('');
  const add = (text: string) => {
    const more = items(text);
    if (more.length) onChange([...values, ...more]);
    setDraft('');
  };
  const type = (text: string) => {
    if (!SEPARATORS.test(text)) {
      setDraft(text);
      return;
    }
    const parts = text.split(SEPARATORS);
    // a list put in at once (pasted) is complete; one typed key by key ends with the item still being typed
    const whole = text.length - draft.length > 1;
    const rest = whole ? '' : (parts.pop() ?? '');
    const more = items(parts.join(','));
    if (more.length) onChange([...values, ...more]);
    setDraft(rest);
  };
  return (
    <Space orientation="vertical" size={4} style={{ width: '100%' }} data-testid={`option-list-${index}`}>
      {values.map((value, n) => (
        // rows are edited in place (their text changes as it is typed), so their position is what names them
        <Space.Compact key={n} style={{ width: '100%' }}>
          <Input value={value} disabled={disabled} onChange={(e) => onChange(values.map((v, i) => (i === n ? e.target.value : v)))} data-testid={`option-${index}-${n}`} />
          <Button disabled={disabled} aria-label={`${removeText} ${value}`} onClick={() => onChange(values.filter((_, i) => i !== n))} data-testid={`option-remove-${index}-${n}`}>
            {removeText}
          </Button>
        </Space.Compact>
      ))}
      {/* keyed: antd's Space keys an unkeyed child by its place, so each row added before the box would draw a
          new box and take the focus from it (and what is left in it would then never be added) */}
      <Space.Compact key="add" style={{ width: '100%' }}>
        <Input
          value={draft}
          disabled={disabled}
          placeholder={placeholder}
          onChange={(e) => type(e.target.value)}
          onPressEnter={(e) => { e.preventDefault(); add(draft); }}
          onBlur={() => add(draft)}
          data-testid={`options-${index}`}
        />
        <Button disabled={disabled} onMouseDown={(e) => e.preventDefault()} onClick={() => add(draft)} data-testid={`option-add-${index}`}>
          {addText}
        </Button>
      </Space.Compact>
    </Space>
  );
}
