import { NavLink } from 'react-router';
import { DEMAND } from '../strings';

const S = DEMAND.tabs;

/** The demand pages, one link each (the current one marked by the router). */
export function DemandNav() {
  return (
    <nav aria-label={S.label} className="tabs">
      <NavLink to="/demand" end>
        {S.preferences}
      </NavLink>
      <NavLink to="/demand/planning">{S.planning}</NavLink>
      <NavLink to="/demand/supply">{S.supply}</NavLink>
    </nav>
  );
}
