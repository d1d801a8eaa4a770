import { PageTitle } from '../../components/page-title';
import { MarketNav } from '../../features/market/components/market-nav';
import { MyOffers } from '../../features/market/components/my-offers';
import { MARKET } from '../../features/market/strings';
import { RequireSession } from '../require-session';

/** The signed-in buyer's offers on every listing, and what became of each. */
export function Page() {
  return (
    <RequireSession>
      {(user) => (
        <>
          <PageTitle lead={MARKET.buyerOffers.lead}>{MARKET.buyerOffers.title}</PageTitle>
          <MarketNav />
          <MyOffers userId={user.id} />
        </>
      )}
    </RequireSession>
  );
}
