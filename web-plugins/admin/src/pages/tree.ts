import type { Menu, Resource } from '../api';

export interface Node { key: string; title: string; children: Node[]; menu?: Menu; resource?: Resource }

export function menuName(m: Menu, locale: string): string {
  const en = m.menuEnName;
  if (locale !== 'zh-cn' && en && typeof en === 'object') return en[locale] || en['en-us'] || m.menuName;
  if (locale !== 'zh-cn' && typeof en === 'string' && en) return en;
  return m.menuName;
}

/** The menus of a system as a tree (keys `m:<id>`), with their buttons as leaves (keys `r:<id>`) when given. */
export function buildTree(menus: Menu[], locale: string, resources: Resource[] = []): Node[] {
  const nodes = new Map<string, Node>();
  for (const m of menus) nodes.set(m.menuId, { key: `m:${m.menuId}`, title: menuName(m, locale), children: [], menu: m });
  const roots: Node[] = [];
  for (const m of menus) {
    const node = nodes.get(m.menuId)!;
    const parent = m.parentId ? nodes.get(m.parentId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  for (const r of resources) nodes.get(r.menuId)?.children.push({ key: `r:${r.resourceId}`, title: `⦿ ${r.resourceName}`, children: [], resource: r });
  return roots;
}
