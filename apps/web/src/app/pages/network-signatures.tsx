import { PageTitle } from '../../components/page-title';
import { SectionNav } from '../../features/transparency/components/section-nav';
import { SigningKeys, SignSubject, VerifySignature } from '../../features/transparency/components/signatures';
import { TRANSPARENCY } from '../../features/transparency/strings';
import { RequireSession } from '../require-session';

const S = TRANSPARENCY.signatures;

/** Signing keys made in the browser, signing a handoff, transfer or certificate, and checking any signature. */
export function Page() {
  return (
    <RequireSession>
      {() => (
        <>
          <PageTitle lead={S.lead}>{S.title}</PageTitle>
          <SectionNav />
          <div className="grid-2">
            <SigningKeys />
            <VerifySignature />
          </div>
          <SignSubject />
        </>
      )}
    </RequireSession>
  );
}
