// The SDK's realtime client on its own, so the app can load it when it is first needed (lib/live.tsx).
export { connectRealtime } from '@rootline/sdk';
