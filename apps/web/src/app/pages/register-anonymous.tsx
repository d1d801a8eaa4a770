import { PageTitle } from '../../components/page-title';
import { AnonymousRegistration } from '../../features/anonymous/components/anonymous-form';
import { ANONYMOUS } from '../../features/anonymous/strings';

export function Page() {
  return (
    <div className="narrow-wide">
      <PageTitle lead={ANONYMOUS.lead}>{ANONYMOUS.title}</PageTitle>
      <AnonymousRegistration />
    </div>
  );
}
