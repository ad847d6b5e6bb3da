import { Form, Input, Select } from 'antd';
import { useT } from '@atrium/sdk';
import { SCRIPT_LANGUAGES } from '../nodeModel';
import { update, type Editing } from './editing';

const MONOSPACE = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' };

/** A script task: its language and its lines (`name = expression`). */
export function ScriptSettings({ editing }: { editing: Editing }) {
  const t = useT('process');
  const bo = editing.element.businessObject;
  return (
    <>
      <Form.Item label={t('web.scriptLanguage')}>
        <Select defaultValue={bo.scriptFormat || undefined} allowClear data-testid="prop-script-language" placeholder={t('web.scriptLanguage')}
          options={SCRIPT_LANGUAGES.map((v) => ({ value: v, label: v }))}
          onChange={(v) => update(editing, { scriptFormat: v || undefined })} />
      </Form.Item>
      <Form.Item label={t('web.scriptContent')} extra={t('web.scriptHint')}>
        <Input.TextArea rows={5} defaultValue={bo.script || ''} style={MONOSPACE} spellCheck={false} data-testid="prop-script-content"
          onBlur={(ev) => update(editing, { script: ev.target.value.trim() ? ev.target.value : undefined })} />
      </Form.Item>
    </>
  );
}
