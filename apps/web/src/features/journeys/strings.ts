import { registerEnglish, t } from '../../i18n';
import english from '../../locales/en/journeys.json';
import type { EventKind, TransportEvent, TransportMode } from './api/journey';

registerEnglish('journeys', english);

/** Every text of a plant's journey: its timeline and map, and the form that records an event. */
export const JOURNEYS = {
  journey: {
    get title() {
      return t('journeys:journey.title');
    },
    get none() {
      return t('journeys:journey.none');
    },
    get map() {
      return t('journeys:journey.map');
    },
    get timeline() {
      return t('journeys:journey.timeline');
    },
    totals: (events: number, km: string, co2: string) => t('journeys:journey.totals', { count: events, km, co2 }),
    leg: (km: string, co2: string) => t('journeys:journey.leg', { km, co2 }),
    get hiddenLeg() {
      return t('journeys:journey.hiddenLeg');
    },
    get hiddenPlace() {
      return t('journeys:journey.hiddenPlace');
    },
    /** Where a step went, and from where when known. */
    route: (from: string, to: string) => t('journeys:journey.route', { from, to }),
    routeTo: (to: string) => t('journeys:journey.routeTo', { to }),
    get corrected() {
      return t('journeys:journey.corrected');
    },
    get handledBy() {
      return t('journeys:journey.handledBy');
    },
    get handedTo() {
      return t('journeys:journey.handedTo');
    },
  },
  /** A kind of event as the timeline names it. */
  kind: (kind: TransportEvent['kind']) => t(`journeys:kinds.${kind}`),
  /** A transport mode as the form's choice names it. */
  mode: (mode: TransportMode) => t(`journeys:modes.${mode}`),
  /** How the goods travelled, as the timeline says it after the place ("by bicycle"). */
  by: (mode: Exclude<TransportMode, 'none'>) => t(`journeys:by.${mode}`),
  record: {
    get title() {
      return t('journeys:record.title');
    },
    get kind() {
      return t('journeys:record.kind');
    },
    get when() {
      return t('journeys:record.when');
    },
    kinds: (kind: EventKind) => t(`journeys:record.kinds.${kind}`),
    get mode() {
      return t('journeys:record.mode');
    },
    get mass() {
      return t('journeys:record.mass');
    },
    get quantity() {
      return t('journeys:record.quantity');
    },
    get from() {
      return t('journeys:record.from');
    },
    get addFrom() {
      return t('journeys:record.addFrom');
    },
    get to() {
      return t('journeys:record.to');
    },
    get submit() {
      return t('journeys:record.submit');
    },
    get busy() {
      return t('journeys:record.busy');
    },
    get done() {
      return t('journeys:record.done');
    },
    get missingTo() {
      return t('journeys:record.missingTo');
    },
  },
} as const;
