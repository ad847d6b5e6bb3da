/** bpmn-js's style sheets, emitted as files of this remote and linked only when a diagram opens. */
let loaded = false;

export function loadBpmnStyles(): void {
  if (loaded || typeof document === 'undefined') return;
  loaded = true;
  const sheets = [
    new URL('bpmn-js/dist/assets/diagram-js.css', import.meta.url),
    new URL('bpmn-js/dist/assets/bpmn-js.css', import.meta.url),
    new URL('bpmn-js/dist/assets/bpmn-font/css/bpmn-embedded.css', import.meta.url),
  ];
  for (const href of sheets) {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = href.toString();
    document.head.appendChild(link);
  }
}

let panelLoaded = false;

/** The properties panel's style sheet: the designer page only. */
export function loadPanelStyles(): void {
  if (panelLoaded || typeof document === 'undefined') return;
  panelLoaded = true;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = new URL('@bpmn-io/properties-panel/dist/assets/properties-panel.css', import.meta.url).toString();
  document.head.appendChild(link);
}
