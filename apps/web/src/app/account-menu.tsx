import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Link, useNavigate } from 'react-router';
import { type User, useSignOut } from '../features/auth/api/session';
import { AUTH } from '../features/auth/strings';
import './account-menu.css';

/**
 * The signed-in person's menu in the header from 768 px (a Radix dropdown menu: arrow keys move, Escape closes and
 * focus returns to the button): their account, their organizations, administration for an ADMIN, and signing out. Below 768 px the same
 * links are in the phone menu's sheet.
 */
export function AccountMenu({
  user,
  labels,
}: {
  user: User;
  labels: { account: string; organizations: string; admin: string };
}) {
  const signOut = useSignOut();
  const navigate = useNavigate();
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className="account-button">
        <span className="visually-hidden">{AUTH.account.menu} </span>
        <span className="account-button-name">{user.name}</span>
        <span aria-hidden="true" className="account-button-caret">
          ▾
        </span>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="account-menu" align="end" sideOffset={6}>
          <DropdownMenu.Label className="account-menu-label">{user.email}</DropdownMenu.Label>
          <DropdownMenu.Item asChild className="account-menu-item">
            <Link to="/account">{labels.account}</Link>
          </DropdownMenu.Item>
          <DropdownMenu.Item asChild className="account-menu-item">
            <Link to="/organizations">{labels.organizations}</Link>
          </DropdownMenu.Item>
          {user.role === 'ADMIN' && (
            <DropdownMenu.Item asChild className="account-menu-item">
              <Link to="/admin/users">{labels.admin}</Link>
            </DropdownMenu.Item>
          )}
          <DropdownMenu.Separator className="account-menu-separator" />
          <DropdownMenu.Item
            className="account-menu-item"
            onSelect={() => {
              // Home first: a page of one's own would otherwise send to sign in once the session is gone.
              navigate('/');
              signOut.mutate();
            }}
          >
            {AUTH.account.signOut}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
