import { withBase } from '@rootline/host';

/** Settings of environment: the shared base settings; it has none of its own. */
export const EnvironmentConfig = withBase({});
