import { NavLink } from 'react-router';
import { MARKET } from '../strings';

const S = MARKET.nav;

/** The marketplace's own pages, under each of its page titles. */
export function MarketNav() {
  return (
    <nav aria-label={S.label}>
      <ul className="tabs">
        <li>
          <NavLink to="/market" end className="button secondary small">
            {S.browse}
          </NavLink>
        </li>
        <li>
          <NavLink to="/market/mine" className="button secondary small">
            {S.mine}
          </NavLink>
        </li>
        <li>
          <NavLink to="/market/offers" className="button secondary small">
            {S.offers}
          </NavLink>
        </li>
        <li>
          <NavLink to="/market/sell" className="button secondary small">
            {S.sell}
          </NavLink>
        </li>
        <li>
          <NavLink to="/market/wishlist" className="button secondary small">
            {S.wishlist}
          </NavLink>
        </li>
      </ul>
    </nav>
  );
}
