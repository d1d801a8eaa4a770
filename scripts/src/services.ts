import { service as chainMiner } from '@rootline/chain-miner';
import { service as demand } from '@rootline/demand';
import { service as environment } from '@rootline/environment';
import { service as farm } from '@rootline/farm';
import type { ServiceModule } from '@rootline/host';
import { service as media } from '@rootline/media';
import { service as notify } from '@rootline/notify';
import { service as plants } from '@rootline/plants';
import { service as transparency } from '@rootline/transparency';
import { service as transport } from '@rootline/transport';
import type { TObject } from '@sinclair/typebox';

/** Every back-end service, in start order (the ledger first: others submit to it). */
export const SERVICES: ServiceModule<TObject>[] = [
  chainMiner as unknown as ServiceModule<TObject>,
  plants as unknown as ServiceModule<TObject>,
  transport as unknown as ServiceModule<TObject>,
  demand as unknown as ServiceModule<TObject>,
  farm as unknown as ServiceModule<TObject>,
  environment as unknown as ServiceModule<TObject>,
  transparency as unknown as ServiceModule<TObject>,
  media as unknown as ServiceModule<TObject>,
  notify as unknown as ServiceModule<TObject>,
];
