import { useParams } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { MarketNav } from '../../features/market/components/market-nav';
import { SellerProfilePanel } from '../../features/market/components/seller-profile';
import { MARKET } from '../../features/market/strings';
import { RequireSession } from '../require-session';

/** A seller's public profile. */
export function Page() {
  const { sellerId = '' } = useParams();
  return (
    <RequireSession>
      {() => (
        <>
          <PageTitle>{MARKET.seller.title}</PageTitle>
          <MarketNav />
          <SellerProfilePanel sellerId={sellerId} />
        </>
      )}
    </RequireSession>
  );
}
