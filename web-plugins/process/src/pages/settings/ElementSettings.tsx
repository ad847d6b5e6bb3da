import { Divider, Empty, Form, Input, Select, Typography } from 'antd';
import { useT } from '@atrium/sdk';
import { attr, isTimerEvent } from '../nodeModel';
import { setAttrs, update, type Editing, type Modeler } from './editing';
import { HttpSettings } from './HttpSettings';
import { ParameterSettings } from './ParameterSettings';
import { ScriptSettings } from './ScriptSettings';
import { TimerSettings } from './TimerSettings';

function isFlowNode(element: any): boolean {
  const bo = element.businessObject;
  return element.type !== 'label' && typeof bo?.$instanceOf === 'function' && bo.$instanceOf('bpmn:FlowNode');
}

function UserTaskSettings({ editing }: { editing: Editing }) {
  const t = useT('process');
  const bo = editing.element.businessObject;
  const text = (name: string) => (ev: { target: { value: string } }) => setAttrs(editing, { [name]: ev.target.value.trim() });
  return (
    <>
      <Form.Item label={t('web.assigneeType')}>
        <Select defaultValue={attr(bo, 'assigneeType') || 'users'} data-testid="prop-assignee-type" onChange={(v) => setAttrs(editing, { assigneeType: v === 'users' ? undefined : v })}
          options={[{ value: 'users', label: t('web.users') }, { value: 'starter', label: t('web.starter') }, { value: 'supervisor', label: t('web.supervisor') }]} />
      </Form.Item>
      <Form.Item label={t('web.assignee')}><Input defaultValue={attr(bo, 'assignee')} onBlur={text('assignee')} data-testid="prop-assignee" /></Form.Item>
      <Form.Item label={t('web.roles')}><Input defaultValue={attr(bo, 'candidateRoles')} onBlur={text('candidateRoles')} /></Form.Item>
      <Form.Item label={t('web.formKey')}><Input defaultValue={attr(bo, 'formKey')} onBlur={text('formKey')} /></Form.Item>
    </>
  );
}

function ConditionSettings({ editing }: { editing: Editing }) {
  const t = useT('process');
  return (
    <Form.Item label={t('web.condition')}>
      <Input.TextArea rows={2} defaultValue={editing.element.businessObject.conditionExpression?.body || ''} data-testid="prop-condition"
        onBlur={(ev) => {
          const body = ev.target.value;
          update(editing, { conditionExpression: body ? editing.modeler.get('moddle').create('bpmn:FormalExpression', { body }) : undefined });
        }} />
    </Form.Item>
  );
}

/** The plugin's own settings of the selected element (who does a user task, a script, an HTTP request, a
 * timer, a node's parameters, a line's condition); the properties panel beside it edits the standard BPMN
 * ones (id, name, documentation, ...). */
export function ElementSettings({ modeler, element, onChange }: { modeler: Modeler; element: any; onChange: () => void }) {
  const t = useT('process');
  if (!element) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('web.noSelection')} />;
  const editing: Editing = { modeler, element, onChange };
  const type = String(element.type);
  const node = isFlowNode(element);
  const own = type === 'bpmn:UserTask' || type === 'bpmn:ScriptTask' || type === 'bpmn:ServiceTask' || isTimerEvent(type);
  return (
    <Form layout="vertical" size="small" key={element.id} data-testid="process-properties">
      <Form.Item label={t('web.element')}><Input value={`${type.replace('bpmn:', '')} · ${element.id}`} disabled /></Form.Item>
      {type === 'bpmn:UserTask' && <UserTaskSettings editing={editing} />}
      {type === 'bpmn:ScriptTask' && <ScriptSettings editing={editing} />}
      {type === 'bpmn:ServiceTask' && <HttpSettings editing={editing} />}
      {isTimerEvent(type) && <TimerSettings editing={editing} />}
      {type === 'bpmn:SequenceFlow' && <ConditionSettings editing={editing} />}
      {node && (
        <>
          {own && <Divider style={{ margin: '8px 0' }} />}
          <ParameterSettings editing={editing} />
        </>
      )}
      {!node && type !== 'bpmn:SequenceFlow' && <Typography.Text type="secondary">{t('web.noSettings')}</Typography.Text>}
    </Form>
  );
}
