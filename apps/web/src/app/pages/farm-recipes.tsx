import { PageTitle } from '../../components/page-title';
import { managesFarms } from '../../features/farms/components/farm-manager-gate';
import { DeriveRecipeForm, RecipeList } from '../../features/farms/components/recipes';
import { FARMS } from '../../features/farms/strings';
import { RequireSession } from '../require-session';

/** The growing recipes, for everyone signed in; farm managers derive new versions. */
export function Page() {
  return (
    <RequireSession>
      {(user) => (
        <>
          <PageTitle lead={FARMS.recipes.lead}>{FARMS.recipes.title}</PageTitle>
          {managesFarms(user.role) && <DeriveRecipeForm />}
          <RecipeList />
        </>
      )}
    </RequireSession>
  );
}
