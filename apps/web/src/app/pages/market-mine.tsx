import { PageTitle } from '../../components/page-title';
import { useSellerLive } from '../../features/market/api/live';
import { MarketNav } from '../../features/market/components/market-nav';
import { MyListings } from '../../features/market/components/my-listings';
import { MARKET } from '../../features/market/strings';
import { RequireSession } from '../require-session';

/** The signed-in seller's listings in every state. */
export function Page() {
  return <RequireSession>{(user) => <MinePage userId={user.id} />}</RequireSession>;
}

function MinePage({ userId }: { userId: string }) {
  useSellerLive(userId);
  return (
    <>
      <PageTitle lead={MARKET.mine.lead}>{MARKET.mine.title}</PageTitle>
      <MarketNav />
      <MyListings sellerId={userId} />
    </>
  );
}
