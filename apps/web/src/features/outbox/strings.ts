import { registerEnglish, t } from '../../i18n';
import english from '../../locales/en/outbox.json';
import type { OutboxItem } from './lib/order';

registerEnglish('outbox', english);

/** What a kept write is, in words: "Plant 'Tomato'", "Environment reading for 'Tomato'". */
function what(item: Pick<OutboxItem, 'kind' | 'plantName' | 'eventKind'>): string {
  const name = item.plantName;
  switch (item.kind) {
    case 'plant':
      return t('outbox:what.plant', { name });
    case 'event':
      return t('outbox:what.event', { name, kind: t(`outbox:eventKinds.${item.eventKind ?? 'journey'}`) });
    case 'reading':
      return t('outbox:what.reading', { name });
    case 'photo':
      return t('outbox:what.photo', { name });
  }
}

/** Every text of the outbox: writes kept on this device until they can be sent. */
export const OUTBOX = {
  /** The header's link to the outbox. */
  nav: (waiting: number, refused: number) => {
    const w = waiting > 0 ? t('outbox:nav.waiting', { count: waiting }) : '';
    const r = refused > 0 ? t('outbox:nav.refused', { count: refused }) : '';
    return w && r ? t('outbox:nav.both', { waiting: w, refused: r }) : w || r;
  },
  get title() {
    return t('outbox:title');
  },
  get lead() {
    return t('outbox:lead');
  },
  get waiting() {
    return t('outbox:waiting');
  },
  get refused() {
    return t('outbox:refused');
  },
  get refusedLead() {
    return t('outbox:refusedLead');
  },
  get sent() {
    return t('outbox:sent');
  },
  get nothingWaiting() {
    return t('outbox:nothingWaiting');
  },
  what,
  /** One item's sentence. */
  line: (item: OutboxItem) => t(`outbox:line.${item.state}`, { what: what(item) }),
  get made() {
    return t('outbox:made');
  },
  get sentAt() {
    return t('outbox:sentAt');
  },
  tries: (n: number) => t('outbox:tries', { count: n }),
  get open() {
    return t('outbox:open');
  },
  openLabel: (item: OutboxItem) => t('outbox:openLabel', { what: what(item) }),
  get openForm() {
    return t('outbox:openForm');
  },
  get edit() {
    return t('outbox:edit');
  },
  editLabel: (item: OutboxItem) => t('outbox:editLabel', { what: what(item) }),
  get discard() {
    return t('outbox:discard');
  },
  discardLabel: (item: OutboxItem) => t('outbox:discardLabel', { what: what(item) }),
  get sendNow() {
    return t('outbox:sendNow');
  },
  get sending() {
    return t('outbox:sending');
  },
  get offline() {
    return t('outbox:offline');
  },
  get signedOut() {
    return t('outbox:signedOut');
  },
  /** What a form says when its write was kept. */
  get kept() {
    return t('outbox:kept');
  },
  /** Names of fields whose last word says too little ("Temperature c"), by the API's field name. */
  field: (name: string): string | undefined =>
    name in english.fields ? t(`outbox:fields.${name as keyof typeof english.fields}`) : undefined,
  get keptLink() {
    return t('outbox:keptLink');
  },
};
