/** bpmn-js-properties-panel ships no type declarations: its modules are handed to bpmn-js as they are. */
declare module 'bpmn-js-properties-panel' {
  export const BpmnPropertiesPanelModule: any;
  export const BpmnPropertiesProviderModule: any;
}
