import { useLocation } from 'react-router';
import { App, FloatButton, Popover, QRCode } from 'antd';
import { CommentIcon, FileTextIcon, QrcodeIcon, StarFilledIcon, StarIcon } from '../icons';
import { request, useT } from '@atrium/sdk';
import { loadFavourites } from '../api';
import { findMenu } from '../menus';
import { store, useStore } from '../store';

/** The floating side toolbar: help documents, favourite, feedback, optional requirements QR code. */
export function SideToolbar({ activeTitle: _title }: { activeTitle: string }) {
  const t = useT();
  const { message } = App.useApp();
  const location = useLocation();
  const index = useStore((s) => s.index);
  const favourites = useStore((s) => s.favourites);
  const flags = useStore((s) => s.flags);
  const menu = findMenu(index, location.pathname);
  const favourite = menu ? favourites.find((f) => String(f.menuId) === String(menu.menuId)) : undefined;

  const help = () => {
    const url = menu?.userManualUrl || menu?.meta?.userManualUrl;
    if (!menu || !url) {
      message.info(t('toolbar.noHelp'));
      return;
    }
    window.open(url, '_blank', 'noopener');
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
    <FloatButton.Group shape="square" style={{ insetInlineEnd: 16, bottom: 120 }}>
      <FloatButton icon={<FileTextIcon />} tooltip={{ title: t('toolbar.help'), placement: 'left' }} onClick={help} data-testid="toolbar-help" />
      <FloatButton
        icon={favourite ? <StarFilledIcon style={{ color: '#faad14' }} /> : <StarIcon />}
        tooltip={{ title: favourite ? t('toolbar.unfavourite') : t('toolbar.favourite'), placement: 'left' }}
        onClick={collect}
        data-testid="toolbar-favourite"
        data-collected={favourite ? 'true' : 'false'}
      />
      <FloatButton icon={<CommentIcon />} tooltip={{ title: t('toolbar.feedback'), placement: 'left' }} onClick={() => store.set({ feedbackOpen: true })} data-testid="toolbar-feedback" />
      {flags.requirementsQr && (
        <Popover placement="left" content={<QRCode value={`${window.location.origin}/portal?from=requirements`} />} title={t('toolbar.requirements')}>
          <FloatButton icon={<QrcodeIcon />} />
        </Popover>
      )}
    </FloatButton.Group>
  );
}
