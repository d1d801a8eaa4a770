import { PageTitle } from '../../components/page-title';
import { MarketNav } from '../../features/market/components/market-nav';
import { RecommendationsPanel, WishlistPanel } from '../../features/market/components/wishlist';
import { MARKET } from '../../features/market/strings';
import { RequireSession } from '../require-session';

/** The signed-in person's wishlist and the listings recommended from it. */
export function Page() {
  return (
    <RequireSession>
      {() => (
        <>
          <PageTitle lead={MARKET.wishlist.lead}>{MARKET.wishlist.page}</PageTitle>
          <MarketNav />
          <div className="grid-2">
            <WishlistPanel />
            <RecommendationsPanel />
          </div>
        </>
      )}
    </RequireSession>
  );
}
