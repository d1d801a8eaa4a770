import { PageTitle } from '../../components/page-title';
import { useMarketLive } from '../../features/market/api/live';
import { ListingSearchPanel } from '../../features/market/components/listing-search';
import { MarketNav } from '../../features/market/components/market-nav';
import { MARKET } from '../../features/market/strings';
import { RequireSession } from '../require-session';

/** Browse and search the marketplace: words, category, price range, distance; as a list or a map. */
export function Page() {
  return <RequireSession>{() => <MarketPage />}</RequireSession>;
}

function MarketPage() {
  useMarketLive();
  return (
    <>
      <PageTitle lead={MARKET.browse.lead}>{MARKET.browse.title}</PageTitle>
      <MarketNav />
      <ListingSearchPanel />
    </>
  );
}
