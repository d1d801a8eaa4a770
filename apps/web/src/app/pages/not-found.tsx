import { Link } from 'react-router';
import { PageTitle } from '../../components/page-title';

const S = { title: 'Page not found', lead: 'There is no page at this address.', home: 'Go to the start page' };

export function Page() {
  return (
    <>
      <PageTitle lead={S.lead}>{S.title}</PageTitle>
      <p>
        <Link to="/">{S.home}</Link>
      </p>
    </>
  );
}
