import { NavLink } from 'react-router';
import { ENVIRONMENT } from '../strings';

const S = ENVIRONMENT.tabs;

/** The environment pages of the main menu's Environment entry, one link each (the current one marked). */
export function EnvironmentNav() {
  return (
    <nav aria-label={S.label} className="tabs">
      <NavLink to="/environment/compare">{S.compare}</NavLink>
      <NavLink to="/environment/analysis">{S.analysis}</NavLink>
    </nav>
  );
}
