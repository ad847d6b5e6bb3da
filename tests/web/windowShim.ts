// `window` and `document.defaultView` for modules that read them when they load (the federation runtime
// behind the host's plugin registry).
import './shims';

const g = globalThis as any;
g.window = g.window || { location: { search: '', pathname: '/' } };
g.document.defaultView = g;
