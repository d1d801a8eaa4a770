import { NavLink } from 'react-router';
import { TRANSPARENCY } from '../strings';

const S = TRANSPARENCY.sections;

/** The links between the transparency pages. */
export function SectionNav() {
  return (
    <nav aria-label={S.label}>
      <ul className="section-links">
        <li>
          <NavLink to="/network" end>
            {S.network}
          </NavLink>
        </li>
        <li>
          <NavLink to="/network/audit">{S.audit}</NavLink>
        </li>
        <li>
          <NavLink to="/network/webhooks">{S.webhooks}</NavLink>
        </li>
        <li>
          <NavLink to="/network/signatures">{S.signatures}</NavLink>
        </li>
        <li>
          <NavLink to="/network/exports">{S.exports}</NavLink>
        </li>
      </ul>
    </nav>
  );
}
