import { lazy, Suspense, useRef, useState } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigation } from 'react-router';
import { LiveStatus } from '../components/live-status';
import { Loading } from '../components/status';
import { WhenIdle } from '../components/when-idle';
import { type User, useSession } from '../features/auth/api/session';
import { InboxLink } from '../features/notifications/components/inbox-link';
import './layout.css';
import { NAV } from './strings';

// Neither is needed for a page's first paint: the account menu comes once someone is signed in, the phone menu's
// sheet when its button is first pressed.
const AccountMenu = lazy(() => import('./account-menu').then((m) => ({ default: m.AccountMenu })));
const PhoneMenu = lazy(() => import('./phone-menu'));
const ActingAsSelect = lazy(() => import('./acting-as').then((m) => ({ default: m.ActingAsSelect })));
// Nor these, which come once the page has painted and the browser is idle (ADR 239): the count of writes kept on this
// device (with IndexedDB and what sends them) and the footer's language select.
const OutboxStatus = lazy(() =>
  import('../features/outbox/components/outbox-status').then((m) => ({ default: m.OutboxStatus })),
);
const LanguageSwitcher = lazy(() =>
  import('../features/auth/components/language-switcher').then((m) => ({ default: m.LanguageSwitcher })),
);

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
                <NavLink to="/organizations">{NAV.organizations}</NavLink>
              </li>
            )}
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
  const menuButton = useRef<HTMLButtonElement>(null);
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
          <WhenIdle>
            <OutboxStatus />
          </WhenIdle>
          {/* The API could not be reached: the person is shown as this device last knew them (ADR 252). */}
          {user?.onDevice && <span className="session-offline">{NAV.offline}</span>}
          {user && (
            <Suspense fallback={null}>
              <AccountMenu
                user={user}
                labels={{ account: NAV.account, organizations: NAV.organizations, admin: NAV.admin }}
              />
            </Suspense>
          )}
          <LiveStatus />
          <button
            type="button"
            className="menu-button"
            ref={menuButton}
            aria-haspopup="dialog"
            aria-expanded={menuOpen}
            onClick={() => setMenuOpenOn(pathname)}
          >
            {NAV.menu}
          </button>
          {menuOpen && (
            <Suspense fallback={null}>
              <PhoneMenu title={NAV.menu} close={NAV.close} button={menuButton} onClose={() => setMenuOpenOn(null)}>
                <MainNav user={user} inSheet />
                {user && <ActingAsSelect user={user} />}
              </PhoneMenu>
            </Suspense>
          )}
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
          <WhenIdle fallback={<p className="language-switcher" aria-hidden="true" />}>
            <LanguageSwitcher id="footer-language" />
          </WhenIdle>
        </div>
      </footer>
    </>
  );
}
