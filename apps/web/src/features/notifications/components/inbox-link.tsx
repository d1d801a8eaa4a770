import { NavLink } from 'react-router';
import { useNotificationsLive, useUnreadCount } from '../api/notifications';
import { NOTIFICATIONS_TEXT as S } from '../strings';

/** The header's link to the inbox with the unread count, kept live from the person's room. */
export function InboxLink({ userId }: { userId: string }) {
  useNotificationsLive(userId);
  const unread = useUnreadCount(true).data ?? 0;
  return (
    <NavLink to="/inbox" aria-label={S.navLabel(unread)}>
      {S.nav(unread)}
    </NavLink>
  );
}
