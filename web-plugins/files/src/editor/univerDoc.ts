/**
 * The Word document editor (Univer's open-source docs preset), loaded only by the editor route for a docx
 * file, through a dynamic `import()`.
 */
import { createUniver, LocaleType, mergeLocales, type IDocumentData } from '@univerjs/presets';
import { UniverDocsCorePreset } from '@univerjs/preset-docs-core';
import univerCss from '@univerjs/preset-docs-core/lib/index.css';
import type { MountedEditor } from './editorApi';
import { addStyles } from './styles';

/** Milliseconds after Univer has rendered before the editor's box is resized. */
const NUDGE_AFTER = 300;
/** A page's width when the document names none (A4, in Univer's units), the room Univer leaves beside
 * the page, and the smallest zoom a narrow box gets. */
const A4_WIDTH = 595;
const PAGE_GUTTER = 56;
const MIN_ZOOM = 0.3;

/** The zoom that shows the page's whole width in the box (a phone), never larger than 1. */
export function zoomToFit(boxWidth: number, pageWidth: number | undefined): number {
  const page = pageWidth && pageWidth > 0 ? pageWidth : A4_WIDTH;
  const fit = (boxWidth - PAGE_GUTTER) / page;
  return Math.round(Math.min(1, Math.max(MIN_ZOOM, fit)) * 100) / 100;
}

/** Univer's menu items for what a save cannot write into a Word document (tables, horizontal lines,
 * check lists, headers and footers, page setup): hidden, so the editor never offers them. */
const HIDDEN_MENUS = [
  'doc.menu.table',
  'doc.operation.create-table',
  'doc.command.horizontal-line',
  'doc.command.insert-horizontal-line-bellow',
  'doc.command.check-list',
  'doc.command.insert-check-list-bellow',
  'doc.command.open-header-footer-panel',
  'docs.operation.open-page-setting',
];

/** Univer's own UI language for the portal's locale; Hungarian (which Univer lacks) falls back to English. */
const LOCALES: Record<string, { type: LocaleType; load: () => Promise<{ default: object }> }> = {
  'zh-cn': { type: LocaleType.ZH_CN, load: () => import('@univerjs/preset-docs-core/locales/zh-CN') },
  'zh-tw': { type: LocaleType.ZH_TW, load: () => import('@univerjs/preset-docs-core/locales/zh-TW') },
  'vi-vn': { type: LocaleType.VI_VN, load: () => import('@univerjs/preset-docs-core/locales/vi-VN') },
  'en-us': { type: LocaleType.EN_US, load: () => import('@univerjs/preset-docs-core/locales/en-US') },
};

export async function mountDoc(
  container: HTMLElement,
  document: Partial<IDocumentData>,
  { locale, editable }: { locale: string; editable: boolean },
): Promise<MountedEditor> {
  addStyles('atrium-univer-docs', univerCss);
  const chosen = LOCALES[locale] || LOCALES['en-us'];
  const messages = (await chosen.load()).default;
  const { univer, univerAPI } = createUniver({
    locale: chosen.type,
    locales: { [chosen.type]: mergeLocales(messages) },
    presets: [
      UniverDocsCorePreset({
        container,
        toolbar: editable,
        contextMenu: editable,
        footer: false,
        menu: Object.fromEntries(HIDDEN_MENUS.map((id) => [id, { hidden: true }])),
      }),
    ],
  });
  const doc = univerAPI.createUniverDoc({ ...document, locale: chosen.type });
  // The pages are drawn only once the editor's box changes size after Univer has rendered: it is made a
  // pixel shorter then (a change Univer's resize observer notices, unlike one undone within a frame).
  await new Promise<void>((resolve) => {
    const Stages = univerAPI.Enum.LifecycleStages;
    let nudged = false;
    const redraw = (stage: number) => {
      if (stage < Stages.Rendered || nudged) return;
      nudged = true;
      setTimeout(() => {
        container.style.bottom = '1px';
        resolve();
      }, NUDGE_AFTER);
    };
    univerAPI.addEvent(univerAPI.Event.LifeCycleChanged, ({ stage }) => redraw(stage));
    redraw(univerAPI.getCurrentLifecycleStage());
  });
  const unitId = doc.getId();
  let zoom = 1;
  const fit = () => {
    const wanted = zoomToFit(container.clientWidth, document.documentStyle?.pageSize?.width);
    if (wanted === zoom) return;
    zoom = wanted;
    void univerAPI.executeCommand('doc.operation.set-zoom-ratio', { unitId, zoomRatio: zoom });
  };
  fit();
  const resized = new ResizeObserver(fit);
  resized.observe(container);
  if (!editable) {
    // no facade switch makes a document read-only: every change to its content (a mutation) is refused
    const { MUTATION } = univerAPI.Enum.CommandType;
    univerAPI.addEvent(univerAPI.Event.BeforeCommandExecute, (event) => {
      if (event.type === MUTATION) event.cancel = true;
    });
  }
  return {
    api: univerAPI,
    async snapshot() {
      return doc.getSnapshot();
    },
    dispose() {
      resized.disconnect();
      univer.dispose();
    },
  };
}
