/** The grid's own rules (react-grid-layout's styles.css, which the module's build cannot load as CSS) and the canvas's. */
export const DESIGNER_CSS = `
.dsg-canvas .react-grid-layout { position: relative; transition: height 200ms ease; }
.dsg-canvas .react-grid-item { transition: all 200ms ease; transition-property: left, top, width, height; box-sizing: border-box; }
.dsg-canvas .react-grid-item.cssTransforms { transition-property: transform, width, height; }
.dsg-canvas .react-grid-item.resizing, .dsg-canvas .react-grid-item.react-draggable-dragging { transition: none; z-index: 3; }
.dsg-canvas .react-grid-item.dropping { visibility: hidden; }
.dsg-canvas .react-grid-item.react-grid-placeholder { background: #204be3; opacity: .15; transition-duration: 100ms; z-index: 2; user-select: none; border-radius: 4px; }
.dsg-canvas .react-grid-item > .react-resizable-handle { position: absolute; width: 14px; height: 14px; bottom: 0; right: 0; cursor: se-resize; z-index: 4; opacity: 0; }
.dsg-canvas .react-grid-item:hover > .react-resizable-handle, .dsg-canvas .react-grid-item.dsg-selected > .react-resizable-handle { opacity: 1; }
.dsg-canvas .react-grid-item > .react-resizable-handle::after { content: ""; position: absolute; right: 3px; bottom: 3px; width: 6px; height: 6px; border-right: 2px solid #204be3; border-bottom: 2px solid #204be3; }
.dsg-item { cursor: move; outline: 1px dashed transparent; }
.dsg-item:hover { outline-color: #98a6d8; }
.dsg-item.dsg-selected { outline: 2px solid #204be3; outline-offset: -1px; z-index: 1; }
.dsg-item-bar { position: absolute; bottom: 100%; right: -1px; display: none; gap: 2px; z-index: 5; background: #204be3; border-radius: 4px 4px 0 0; }
.dsg-item.dsg-selected > .dsg-item-bar { display: flex; }
.dsg-item-bar button { color: #fff !important; }
.dsg-item-body { pointer-events: none; width: 100%; height: 100%; overflow: hidden; }
.dsg-nested { cursor: default; }
.dsg-field > .ant-switch, .dsg-field > .ant-color-picker-trigger, .dsg-field > .ant-segmented, .dsg-field > .ant-input-number { align-self: flex-start; }
.dsg-palette-item { display: flex; align-items: center; gap: 6px; padding: 5px 8px; border-radius: 6px; cursor: grab; user-select: none; border: 1px solid transparent; font-size: 13px; }
.dsg-palette-item:hover { background: rgba(32,75,227,.06); border-color: rgba(32,75,227,.25); }
`;
