import { Link } from 'react-router';
import { PageTitle } from '../../../components/page-title';
import { FARMS } from '../strings';

const S = FARMS.gate;

/** Whether a role runs farms: FARM_MANAGER, and ADMIN (who may do everything). */
export function managesFarms(role: string): boolean {
  return role === 'FARM_MANAGER' || role === 'ADMIN';
}

/** What a person without the farm manager role can do here, and who grants the role. */
export function FarmManagerOnly() {
  return (
    <>
      <PageTitle lead={S.lead}>{S.title}</PageTitle>
      <section className="card" aria-labelledby="farm-role">
        <h2 id="farm-role">{S.heading}</h2>
        <p>{S.body}</p>
        <p>{S.who}</p>
        <p>
          <Link to="/vertical-farm/recipes">{S.recipes}</Link>
        </p>
      </section>
    </>
  );
}
