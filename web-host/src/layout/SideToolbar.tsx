import { useLocation } from 'react-router';
import { App, FloatButton, Popover, QRCode } from 'antd';
import { CommentIcon, FileTextIcon, FullscreenIcon, QrcodeIcon, StarFilledIcon, StarIcon } from '../icons';
import { appUrl, bus, request, useT } from '@atrium/sdk';
import { loadFavourites } from '../api';
import { requirementsQrUrl } from '../config';
import { findMenu } from '../menus';
import { loadExposed } from '../plugins/registry';
import { store, useStore } from '../store';

/** The floating side toolbar: help documents, favourite, full screen, feedback, optional requirements QR code. */
export function SideToolbar({ activeTitle: _title }: { activeTitle: string }) {
  const t = useT();
  const { message } = App.useApp();
  const location = useLocation();
  const index = useStore((s) => s.index);
  const favourites = useStore((s) => s.favourites);
  const flags = useStore((s) => s.flags);
  const manifest = useStore((s) => s.manifest);
  const mobile = useStore((s) => s.device) === 'mobile';
  const menu = findMenu(index, location.pathname);
  const favourite = menu ? favourites.find((f) => String(f.menuId) === String(menu.menuId)) : undefined;

  // The menu's user manual; else a plugin filling the help drawer says whether it has the page's document
  // (it answers `help:document` by opening the drawer or calling `none`); else the no-document message.
  const help = async () => {
    const url = menu?.userManualUrl || menu?.meta?.userManualUrl;
    const none = () => void message.info(t('toolbar.noHelp'));
    if (menu && url) {
      window.open(appUrl(url), '_blank', 'noopener');
      return;
    }
    const plugin = manifest?.plugins.find((p) => p.slots?.some((s) => s.slot === 'drawer'));
    const slot = plugin?.slots?.find((s) => s.slot === 'drawer');
    if (!menu || !plugin || !slot) {
      none();
      return;
    }
    const ask = { menu, open: () => store.set({ helpOpen: true }), none, handled: false };
    await loadExposed(plugin, slot.module).catch(() => undefined);
    bus.emit('help:document', ask);
    if (!ask.handled) none();
  };

  const collect = async () => {
    if (!menu || !menu.path) {
      message.error(t('toolbar.cannotFavourite'));
      return;
    }
    try {
      if (favourite) {
        await request('portal/portal-favourite/delete-id', { params: { id: favourite.favouriteId } });
        message.success(t('toolbar.unfavourited'));
      } else {
        const query = Object.fromEntries(new URLSearchParams(location.search));
        await request('portal/portal-favourite/save-one-click', {
          method: 'POST',
          data: { menuId: menu.menuId, functionUrl: location.pathname.replace(/^\//, ''), params: JSON.stringify(query) },
        });
        message.success(t('toolbar.favourited'));
      }
      await loadFavourites();
    } catch {
      /* shown by the request client */
    }
  };

  return (
    <FloatButton.Group shape="square" style={{ insetInlineEnd: mobile ? 6 : 16, bottom: 120 }} className="at-side-toolbar">
      <FloatButton icon={<FileTextIcon />} tooltip={{ title: t('toolbar.help'), placement: 'left' }} onClick={help} data-testid="toolbar-help" />
      <FloatButton
        icon={favourite ? <StarFilledIcon style={{ color: '#faad14' }} /> : <StarIcon />}
        tooltip={{ title: favourite ? t('toolbar.unfavourite') : t('toolbar.favourite'), placement: 'left' }}
        onClick={collect}
        data-testid="toolbar-favourite"
        data-collected={favourite ? 'true' : 'false'}
      />
      <FloatButton
        icon={<FullscreenIcon />}
        tooltip={{ title: t('toolbar.fullscreen'), placement: 'left' }}
        aria-label={t('toolbar.fullscreen')}
        onClick={() => store.set({ fullscreen: true })}
        data-testid="toolbar-fullscreen"
      />
      <FloatButton icon={<CommentIcon />} tooltip={{ title: t('toolbar.feedback'), placement: 'left' }} onClick={() => store.set({ feedbackOpen: true })} data-testid="toolbar-feedback" />
      {flags.requirementsQr && (
        <Popover
          placement="left"
          trigger={['hover', 'focus']}
          title={t('toolbar.requirements')}
          content={
            <div data-testid="requirements-qr">
              <QRCode value={requirementsQrUrl(window.location.origin)} />
            </div>
          }
        >
          <FloatButton icon={<QrcodeIcon />} aria-label={t('toolbar.requirements')} data-testid="toolbar-requirements" />
        </Popover>
      )}
    </FloatButton.Group>
  );
}
