import * as Dialog from '@radix-ui/react-dialog';
import { Suspense, useState } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigation } from 'react-router';
import { LiveStatus } from '../components/live-status';
import { Loading } from '../components/status';
import { type User, useSession } from '../features/auth/api/session';
import { InboxLink } from '../features/notifications/components/inbox-link';
import { AccountMenu } from './account-menu';
import './layout.css';

const NAV = {
  label: 'Main',
  menu: 'Menu',
  close: 'Close',
  skip: 'Skip to content',
  home: 'Rootline',
  discover: 'Discover',
  register: 'Register a plant',
  mine: 'My plants',
  market: 'Marketplace',
  anonymous: 'Register anonymously',
  farms: 'Vertical farms',
  demand: 'Demand',
  environment: 'Environment',
  account: 'Account',
  admin: 'Administration',
  network: 'Network',
  signIn: 'Sign in',
  signUp: 'Sign up',
  footer: 'Rootline traces plants, their offspring and their journeys on an open ledger.',
  api: 'API documentation',
} as const;

/** The main menu's links: who is signed in decides which. */
function MainNav({ user, inSheet = false }: { user: User | null; inSheet?: boolean }) {
  return (
    <nav className="site-nav" aria-label={NAV.label}>
      <ul>
        <li>
          <NavLink to="/discover">{NAV.discover}</NavLink>
        </li>
        {user ? (
          <>
            <li>
              <NavLink to="/plants/new">{NAV.register}</NavLink>
            </li>
            <li>
              <NavLink to="/plants/mine">{NAV.mine}</NavLink>
            </li>
            <li>
              <NavLink to="/market">{NAV.market}</NavLink>
            </li>
            <li>
              <NavLink to="/vertical-farm">{NAV.farms}</NavLink>
            </li>
            <li>
              <NavLink to="/demand">{NAV.demand}</NavLink>
            </li>
            <li>
              <NavLink to="/environment">{NAV.environment}</NavLink>
            </li>
            <li>
              <NavLink to="/network">{NAV.network}</NavLink>
            </li>
            <li>
              <InboxLink userId={user.id} />
            </li>
            {/* From 768 px the account's links are in the account menu beside the navigation. */}
            {inSheet && (
              <li>
                <NavLink to="/account">{NAV.account}</NavLink>
              </li>
            )}
            {inSheet && user.role === 'ADMIN' && (
              <li>
                <NavLink to="/admin/users">{NAV.admin}</NavLink>
              </li>
            )}
          </>
        ) : (
          <>
            <li>
              <NavLink to="/plants/register-anonymous">{NAV.anonymous}</NavLink>
            </li>
            <li>
              <NavLink to="/signin">{NAV.signIn}</NavLink>
            </li>
            <li>
              <NavLink to="/signup">{NAV.signUp}</NavLink>
            </li>
          </>
        )}
      </ul>
    </nav>
  );
}

/**
 * The frame of every page: skip link, header with navigation, the page, footer. From 768 px the menu sits in the
 * header; below, a Menu button opens it as a sheet (a Radix dialog: focus moves in and stays, Escape closes it, focus
 * returns to the button), and a new page closes it.
 */
export function AppLayout() {
  const session = useSession();
  const navigation = useNavigation();
  const user = session.data ?? null;
  const { pathname } = useLocation();
  const [menuOpenOn, setMenuOpenOn] = useState<string | null>(null);
  const menuOpen = menuOpenOn === pathname;
  return (
    <>
      <a className="skip-link" href="#main">
        {NAV.skip}
      </a>
      <header className="site-header">
        <div className="container header-row">
          <Link to="/" className="brand">
            <img src="/favicon.svg" alt="" width="28" height="28" />
            {NAV.home}
          </Link>
          <MainNav user={user} />
          {user && <AccountMenu user={user} labels={{ account: NAV.account, admin: NAV.admin }} />}
          <LiveStatus />
          <Dialog.Root open={menuOpen} onOpenChange={(open) => setMenuOpenOn(open ? pathname : null)}>
            <Dialog.Trigger className="menu-button">{NAV.menu}</Dialog.Trigger>
            <Dialog.Portal>
              <Dialog.Overlay className="menu-overlay" />
              <Dialog.Content className="menu-sheet" aria-describedby={undefined}>
                <div className="menu-sheet-head">
                  <Dialog.Title>{NAV.menu}</Dialog.Title>
                  <Dialog.Close className="secondary small">{NAV.close}</Dialog.Close>
                </div>
                <MainNav user={user} inSheet />
              </Dialog.Content>
            </Dialog.Portal>
          </Dialog.Root>
        </div>
      </header>
      <main id="main" className="container" tabIndex={-1} aria-busy={navigation.state === 'loading'}>
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </main>
      <footer className="site-footer">
        <div className="container">
          <p>{NAV.footer}</p>
          <p>
            <a href="/api/docs">{NAV.api}</a>
          </p>
        </div>
      </footer>
    </>
  );
}
