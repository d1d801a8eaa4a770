import { Link } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { NOT_FOUND as S } from '../strings';

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
