import { withBase } from '@rootline/host';

/** Settings of demand: the shared base settings; it has none of its own. */
export const DemandConfig = withBase({});
