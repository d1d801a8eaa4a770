import { Link, NavLink } from 'react-router';
import { PageTitle } from '../../../components/page-title';
import { ADMIN } from '../strings';

/** What a signed-in person without the ADMIN role sees on an administration page, and where they can go. */
export function AdminOnly({ roleName }: { roleName: string }) {
  const S = ADMIN.only;
  return (
    <>
      <PageTitle lead={S.lead}>{S.title}</PageTitle>
      <p>{S.yourRole(roleName)}</p>
      <p>{S.instead}</p>
      <ul className="tabs">
        <li>
          <Link className="button secondary" to="/account">
            {S.account}
          </Link>
        </li>
        <li>
          <Link className="button secondary" to="/plants/mine">
            {S.mine}
          </Link>
        </li>
        <li>
          <Link className="button secondary" to="/discover">
            {S.discover}
          </Link>
        </li>
      </ul>
      <p className="muted">{S.ask}</p>
    </>
  );
}

/** Links between the administration pages. */
export function AdminNav() {
  const S = ADMIN.nav;
  return (
    <nav aria-label={S.label}>
      <ul className="tabs admin-tabs">
        <li>
          <NavLink to="/admin/users">{S.users}</NavLink>
        </li>
        <li>
          <NavLink to="/admin/agents">{S.agents}</NavLink>
        </li>
        <li>
          <NavLink to="/admin/health">{S.health}</NavLink>
        </li>
      </ul>
    </nav>
  );
}
