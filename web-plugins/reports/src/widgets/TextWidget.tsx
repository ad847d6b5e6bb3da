import { Input } from 'antd';
import { useState } from 'react';
import type { PanelComponent } from '../model/types';
import { useRT } from '../i18n';
import { usePanel, usePanelStore } from '../panel/store';
import { WidgetTitle } from './Widget';

/** The text widget: a contains (like) filter, set on Enter or when cleared. */
export function TextWidget({ component }: { component: PanelComponent }) {
  const { t } = useRT();
  const store = usePanelStore();
  const value = usePanel((s) => s.values[component.id]);
  const [text, setText] = useState(typeof value === 'string' ? value : '');
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    setSeen(value);
    setText(typeof value === 'string' ? value : '');
  }
  return (
    <>
      <WidgetTitle text={component.options?.attrs?.title} />
      <Input.Search
        size="small"
        data-testid="text-widget"
        allowClear
        placeholder={component.options?.attrs?.placeholder || t('filter.textPlaceholder')}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          if (!e.target.value) store.setValue(component.id, '');
        }}
        onSearch={(v) => store.setValue(component.id, v.trim())}
      />
    </>
  );
}
