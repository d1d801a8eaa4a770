import { registerEnglish, t } from '../../i18n';
import { isOneOf } from '../../lib/one-of';
import english from '../../locales/en/lineage.json';

registerEnglish('lineage', english);

const PROPAGATION_TYPES = ['clone', 'seed', 'cutting', 'graft', 'division', 'layering', 'tissue-culture'] as const;

/** Every text of the lineage graph, in one place. */
export const LINEAGE = {
  get title() {
    return t('lineage:title');
  },
  get lead() {
    return t('lineage:lead');
  },
  get graph() {
    return t('lineage:graph');
  },
  get list() {
    return t('lineage:list');
  },
  generation: (generation: number) => t('lineage:generation', { generation }),
  get truncated() {
    return t('lineage:truncated');
  },
  get thisPlant() {
    return t('lineage:thisPlant');
  },
  /** A plant of the graph as a screen reader names it. */
  node: (name: string, generation: number, current: boolean) =>
    current ? t('lineage:nodeCurrent', { name, generation }) : t('lineage:node', { name, generation }),
  /** The other node a relative lives on. */
  onNode: (peer: string) => t('lineage:onNode', { peer }),
  /** The mark of a relative on another node: verified there, its node forked, or not known now. */
  verification: (peer: string, state: string) =>
    state === 'verified'
      ? t('lineage:verifiedOn', { peer })
      : state === 'fork'
        ? t('lineage:forkedOn', { peer })
        : t('lineage:uncheckedOn', { peer }),
  /** A relative on another node as a screen reader names it. */
  remoteNode: (name: string, peer: string, state: string) =>
    t('lineage:remoteNode', { name, peer, mark: LINEAGE.verification(peer, state) }),
  /** How an offspring was propagated, from the API's code (an unknown code is shown as it is). */
  propagation: (type: string) => (isOneOf(PROPAGATION_TYPES, type) ? t(`lineage:propagation.${type}`) : type),
} as const;
