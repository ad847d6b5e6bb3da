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
