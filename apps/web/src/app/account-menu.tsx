import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Link, useNavigate } from 'react-router';
import { type User, useSignOut } from '../features/auth/api/session';
import { AUTH } from '../features/auth/strings';
import { setActingAs } from '../lib/acting-as';
import { useActingChoices } from './acting-as';
import { NAV } from './strings';
import './account-menu.css';

/**
 * The signed-in person's menu in the header from 768 px (a Radix dropdown menu: arrow keys move, Escape closes and
 * focus returns to the button): their account, their organizations, administration for an ADMIN, whom the tab acts
 * for (its button shows the organization), and signing out. Below 768 px the same
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
  const acting = useActingChoices(user);
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className="account-button">
        <span className="visually-hidden">{AUTH.account.menu} </span>
        <span className="account-button-name">
          {user.name}
          {acting.current && <span className="account-button-acting"> · {acting.current.name}</span>}
        </span>
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
          {acting.choices.length > 1 && (
            <>
              <DropdownMenu.Separator className="account-menu-separator" />
              <DropdownMenu.Label className="account-menu-label">{NAV.actingAs}</DropdownMenu.Label>
              <DropdownMenu.RadioGroup value={acting.value} onValueChange={acting.choose}>
                {acting.choices.map((c) => (
                  <DropdownMenu.RadioItem key={c.id} value={c.id} className="account-menu-item account-menu-radio">
                    <DropdownMenu.ItemIndicator className="account-menu-indicator">✓</DropdownMenu.ItemIndicator>
                    {c.name}
                  </DropdownMenu.RadioItem>
                ))}
              </DropdownMenu.RadioGroup>
            </>
          )}
          <DropdownMenu.Separator className="account-menu-separator" />
          <DropdownMenu.Item
            className="account-menu-item"
            onSelect={() => {
              setActingAs(null);
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
