import { Col, Form, Input, InputNumber, Row, Select, Switch } from 'antd';
import { useT } from '@atrium/sdk';
import { attr, HTTP_METHODS, HTTP_PARAM_TYPES, MAX_HTTP_ATTEMPTS, rawAttr } from '../nodeModel';
import { httpTaskAttrs, setAttrs, type Editing } from './editing';

const MONOSPACE = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' };

/** A text setting written when the field is left. */
function TextSetting({ editing, name, label, testId, placeholder }: { editing: Editing; name: string; label: string; testId: string; placeholder?: string }) {
  return (
    <Form.Item label={label}>
      <Input defaultValue={rawAttr(editing.element.businessObject, name) || ''} placeholder={placeholder} data-testid={testId}
        onBlur={(ev) => setAttrs(editing, { [name]: ev.target.value.trim() })} />
    </Form.Item>
  );
}

/** A JSON setting (headers, body) written as typed when the field is left. */
function JsonSetting({ editing, name, label, testId }: { editing: Editing; name: string; label: string; testId: string }) {
  return (
    <Form.Item label={label}>
      <Input.TextArea rows={3} defaultValue={rawAttr(editing.element.businessObject, name) || ''} style={MONOSPACE} spellCheck={false}
        placeholder='{"key": "value"}' data-testid={testId} onBlur={(ev) => setAttrs(editing, { [name]: ev.target.value })} />
    </Form.Item>
  );
}

/** A service task that calls an HTTP address: the request, its retries and where the answer goes. */
export function HttpSettings({ editing }: { editing: Editing }) {
  const t = useT('process');
  const bo = editing.element.businessObject;
  const isHttp = attr(bo, 'type') === 'http';
  const choose = (name: string) => (v: string | undefined) => setAttrs(editing, { [name]: v });
  const half = { xs: 24, sm: 12 };
  return (
    <>
      <Form.Item label={t('web.httpTask')}>
        <Switch checked={isHttp} data-testid="prop-http-switch"
          onChange={(on) => setAttrs(editing, on ? httpTaskAttrs() : { type: undefined })} />
      </Form.Item>
      {isHttp && (
        <>
          <TextSetting editing={editing} name="url" label={t('web.httpUrl')} testId="prop-http-url" placeholder="https://" />
          <Row gutter={8}>
            <Col {...half}>
              <Form.Item label={t('web.httpMethod')}>
                <Select defaultValue={attr(bo, 'method') || undefined} allowClear data-testid="prop-http-method" onChange={choose('method')}
                  options={HTTP_METHODS.map((m) => ({ value: m, label: m }))} />
              </Form.Item>
            </Col>
            <Col {...half}>
              <Form.Item label={t('web.httpParamType')}>
                <Select defaultValue={attr(bo, 'paramType') || undefined} allowClear data-testid="prop-http-param-type" onChange={choose('paramType')}
                  options={HTTP_PARAM_TYPES.map((p) => ({ value: p, label: p }))} />
              </Form.Item>
            </Col>
            <Col {...half}><TextSetting editing={editing} name="charset" label={t('web.httpCharset')} testId="prop-http-charset" placeholder="utf-8" /></Col>
            <Col {...half}><TextSetting editing={editing} name="contentType" label={t('web.httpContentType')} testId="prop-http-content-type" placeholder="application/json" /></Col>
            <Col {...half}><TextSetting editing={editing} name="successCode" label={t('web.httpSuccessCode')} testId="prop-http-success-code" placeholder="200" /></Col>
            <Col {...half}>
              <Form.Item label={t('web.httpAttempts')}>
                <InputNumber min={1} max={MAX_HTTP_ATTEMPTS} precision={0} style={{ width: '100%' }} data-testid="prop-http-attempts"
                  defaultValue={Number(attr(bo, 'attempts')) || undefined} placeholder="3"
                  onChange={(v) => setAttrs(editing, { attempts: v ? String(v) : undefined })} />
              </Form.Item>
            </Col>
          </Row>
          <TextSetting editing={editing} name="resultVariable" label={t('web.httpResultVariable')} testId="prop-http-result" placeholder="response" />
          <JsonSetting editing={editing} name="headers" label={t('web.httpHeaders')} testId="prop-http-headers" />
          <JsonSetting editing={editing} name="body" label={t('web.httpBody')} testId="prop-http-body" />
        </>
      )}
    </>
  );
}
