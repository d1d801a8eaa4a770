import { useParams } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { MarketNav } from '../../features/market/components/market-nav';
import { SellerProfilePanel } from '../../features/market/components/seller-profile';
import { MARKET } from '../../features/market/strings';
import { WithSession } from '../require-session';

/** A seller's public profile, signed in or not. */
export function Page() {
  const { sellerId = '' } = useParams();
  return (
    <WithSession>
      {(user) => (
        <>
          <PageTitle>{MARKET.seller.title}</PageTitle>
          {user && <MarketNav />}
          <SellerProfilePanel sellerId={sellerId} />
        </>
      )}
    </WithSession>
  );
}
