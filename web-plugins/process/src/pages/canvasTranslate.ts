/**
 * bpmn-js and its properties panel write their labels in English through diagram-js's `translate` service.
 * This module replaces that service: the texts the designer shows (palette, context pad, the properties
 * panel's BPMN sections) are looked up under `process:canvas.*` in the current language; any other text stays
 * as the library wrote it.
 */
import { translate as sdkTranslate } from '@atrium/sdk';

/** The library's English text → the key under `canvas` in i18n/<locale>/process.json. */
export const CANVAS_KEYS: Record<string, string> = {
  // properties panel
  General: 'general',
  Name: 'name',
  ID: 'id',
  Documentation: 'documentation',
  'Element documentation': 'elementDocumentation',
  'Process documentation': 'processDocumentation',
  Executable: 'executable',
  'Process name': 'processName',
  'Process ID': 'processId',
  'Select an element to edit its properties.': 'selectElement',
  'Multiple elements are selected. Select a single element to edit its properties.': 'multipleSelected',
  'ID must be unique.': 'idUnique',
  'ID must not be empty.': 'idEmpty',
  'ID must not contain spaces.': 'idSpaces',
  'ID must be a valid QName.': 'idQName',
  'ID must not contain prefix.': 'idPrefix',
  'Toggle section': 'toggleSection',
  'Section contains edits': 'sectionEdited',
  'Section contains an error': 'sectionError',
  'Open pop-up editor': 'openEditor',
  Timer: 'timer',
  Type: 'type',
  Value: 'value',
  'Multi-instance': 'multiInstance',
  'Loop cardinality': 'loopCardinality',
  'Completion condition': 'completionCondition',
  // the panel's header: the element's kind
  'Start Event': 'startEvent',
  'End Event': 'endEvent',
  Task: 'task',
  'User Task': 'userTask',
  'Script Task': 'scriptTask',
  'Service Task': 'serviceTask',
  'Exclusive Gateway': 'exclusiveGateway',
  'Inclusive Gateway': 'inclusiveGateway',
  'Parallel Gateway': 'parallelGateway',
  'Sequence Flow': 'sequenceFlow',
  'Conditional Flow': 'conditionalFlow',
  'Default Flow': 'defaultFlow',
  Process: 'process',
  // palette
  'Activate hand tool': 'handTool',
  'Activate lasso tool': 'lassoTool',
  'Activate create/remove space tool': 'spaceTool',
  'Activate global connect tool': 'connectTool',
  'Create start event': 'createStartEvent',
  'Create intermediate/boundary event': 'createIntermediateEvent',
  'Create end event': 'createEndEvent',
  'Create gateway': 'createGateway',
  'Create task': 'createTask',
  'Create data object reference': 'createDataObject',
  'Create data store reference': 'createDataStore',
  'Create expanded sub-process': 'createSubProcess',
  'Create pool/participant': 'createPool',
  'Create group': 'createGroup',
  'Create HTTP task': 'createHttpTask',
  'Create script task': 'createScriptTask',
  'Create timer event': 'createTimerEvent',
  // context pad
  'Append end event': 'appendEndEvent',
  'Append gateway': 'appendGateway',
  'Append task': 'appendTask',
  'Append intermediate/boundary event': 'appendIntermediateEvent',
  'Append HTTP task': 'appendHttpTask',
  'Append script task': 'appendScriptTask',
  'Append timer event': 'appendTimerEvent',
  'Add text annotation': 'addTextAnnotation',
  'Change element': 'changeElement',
  'Connect to other element': 'connect',
  'Connect using association': 'connectAssociation',
  Delete: 'delete',
};

/** diagram-js's translate signature: a template with `{name}` placeholders and their values. */
export function canvasTranslate(template: string, replacements?: Record<string, unknown>): string {
  const key = CANVAS_KEYS[template];
  let text = key ? sdkTranslate(`process:canvas.${key}`, template) : template;
  for (const [k, v] of Object.entries(replacements || {})) text = text.replace(new RegExp(`\\{${k}\\}`, 'g'), String(v));
  return text;
}

/** The diagram-js module that puts `canvasTranslate` in place of the library's `translate` service. */
export const canvasTranslateModule = { translate: ['value', canvasTranslate] };
