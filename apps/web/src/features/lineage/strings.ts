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
  /** How an offspring was propagated, from the API's code (an unknown code is shown as it is). */
  propagation: (type: string) => (isOneOf(PROPAGATION_TYPES, type) ? t(`lineage:propagation.${type}`) : type),
} as const;
