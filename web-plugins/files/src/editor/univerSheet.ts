/**
 * The spreadsheet editor (Univer's open-source sheets preset). This module and Univer itself are loaded
 * only by the editor route, through a dynamic `import()`: nothing else in the remote pulls them in.
 */
import { createUniver, LocaleType, mergeLocales, type IWorkbookData } from '@univerjs/presets';
import { UniverSheetsCorePreset } from '@univerjs/preset-sheets-core';
import univerCss from '@univerjs/preset-sheets-core/lib/index.css';
import type { MountedEditor } from './editorApi';
import { addStyles } from './styles';


/** Univer's own UI language for the portal's locale; Hungarian (which Univer lacks) falls back to English. */
const LOCALES: Record<string, { type: LocaleType; load: () => Promise<{ default: object }> }> = {
  'zh-cn': { type: LocaleType.ZH_CN, load: () => import('@univerjs/preset-sheets-core/locales/zh-CN') },
  'zh-tw': { type: LocaleType.ZH_TW, load: () => import('@univerjs/preset-sheets-core/locales/zh-TW') },
  'vi-vn': { type: LocaleType.VI_VN, load: () => import('@univerjs/preset-sheets-core/locales/vi-VN') },
  'en-us': { type: LocaleType.EN_US, load: () => import('@univerjs/preset-sheets-core/locales/en-US') },
};

export async function mountSheet(
  container: HTMLElement,
  workbook: Partial<IWorkbookData>,
  { locale, editable }: { locale: string; editable: boolean },
): Promise<MountedEditor> {
  addStyles('atrium-univer-sheets', univerCss);
  const chosen = LOCALES[locale] || LOCALES['en-us'];
  const messages = (await chosen.load()).default;
  const { univer, univerAPI } = createUniver({
    locale: chosen.type,
    locales: { [chosen.type]: mergeLocales(messages) },
    presets: [
      UniverSheetsCorePreset({
        container,
        toolbar: editable,
        contextMenu: editable,
        formulaBar: true,
        footer: { menus: editable },
      }),
    ],
  });
  const book = univerAPI.createWorkbook({ ...workbook, locale: chosen.type });
  if (!editable) {
    // Viewer mode refuses every edit (setEditable alone still lets a cell be typed into). Univer sets the
    // workbook's permissions up again once it has drawn it, so the mode is set at each later stage too.
    book.setEditable(false);
    const readOnly = () => book.getWorkbookPermission().setReadOnly();
    await readOnly();
    const Stages = univerAPI.Enum.LifecycleStages;
    await new Promise<void>((resolve) => {
      const apply = (stage: number) => {
        if (stage >= Stages.Rendered) void readOnly().then(() => resolve(), () => resolve());
      };
      univerAPI.addEvent(univerAPI.Event.LifeCycleChanged, ({ stage }) => apply(stage));
      apply(univerAPI.getCurrentLifecycleStage());
    });
  }
  return {
    api: univerAPI,
    async snapshot() {
      await book.endEditingAsync(true);
      return book.save();
    },
    dispose() {
      univer.dispose();
    },
  };
}
