/** Rich text of text widgets is HTML written by panel authors; shared links show it to anyone, so only
 * formatting survives: scripts, frames, event handlers and script addresses are removed. */
const DROP = new Set(['SCRIPT', 'STYLE', 'IFRAME', 'OBJECT', 'EMBED', 'LINK', 'META', 'FORM', 'INPUT', 'BUTTON', 'TEXTAREA', 'SELECT', 'BASE']);

export function sanitizeHtml(html: string): string {
  if (typeof DOMParser === 'undefined') return '';
  const doc = new DOMParser().parseFromString(`<div>${html || ''}</div>`, 'text/html');
  const root = doc.body.firstElementChild;
  if (!root) return '';
  const walk = (el: Element) => {
    for (const child of Array.from(el.children)) {
      if (DROP.has(child.tagName)) {
        child.remove();
        continue;
      }
      for (const attr of Array.from(child.attributes)) {
        const name = attr.name.toLowerCase();
        // white space and control characters (C0, DEL, C1) hidden in a scheme, e.g. `java\tscript:`
        const value = attr.value.replace(/[\s\p{Cc}]/gu, '').toLowerCase();
        if (name.startsWith('on') || ((name === 'href' || name === 'src' || name === 'xlink:href' || name === 'action') && /^(javascript|vbscript|data:text)/.test(value))) {
          child.removeAttribute(attr.name);
        }
      }
      if (child.tagName === 'A') child.setAttribute('rel', 'noopener noreferrer');
      walk(child);
    }
  };
  walk(root);
  return root.innerHTML;
}
