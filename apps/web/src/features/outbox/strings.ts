import { countOf } from '../../lib/plural';
import type { EventKind, OutboxItem } from './lib/order';

const EVENT_KINDS: Record<EventKind, string> = {
  planting: 'Planting',
  growing: 'Growing',
  harvest: 'Harvest',
  distribution: 'Distribution',
  'seed-acquisition': 'Seed acquisition',
  'seed-saving': 'Seed saving',
};

/** What a kept write is, in words: "Plant 'Tomato'", "Environment reading for 'Tomato'". */
function what(item: Pick<OutboxItem, 'kind' | 'plantName' | 'eventKind'>): string {
  const name = `'${item.plantName}'`;
  switch (item.kind) {
    case 'plant':
      return `Plant ${name}`;
    case 'event':
      return `${item.eventKind ? EVENT_KINDS[item.eventKind] : 'Journey'} event for ${name}`;
    case 'reading':
      return `Environment reading for ${name}`;
    case 'photo':
      return `Photo of ${name}`;
  }
}

/** Every text of the outbox: writes kept on this device until they can be sent. */
export const OUTBOX = {
  /** The header's link to the outbox. */
  nav: (waiting: number, refused: number) =>
    [waiting > 0 ? `${countOf(waiting, 'item')} waiting to be sent` : '', refused > 0 ? `${refused} not accepted` : '']
      .filter(Boolean)
      .join(', '),
  title: 'Outbox',
  lead: 'What you recorded without a network is kept on this device and sent, in the order you made it, as soon as Rootline can be reached.',
  waiting: 'Waiting to be sent',
  refused: 'Not accepted',
  refusedLead: 'Rootline did not accept these. Discard them, or open the form and record them again.',
  sent: 'Sent',
  nothingWaiting: 'Nothing is waiting to be sent.',
  what,
  /** One item's sentence. */
  line: (item: OutboxItem) =>
    item.state === 'waiting'
      ? `${what(item)} — waiting to be sent`
      : item.state === 'sent'
        ? `${what(item)} — sent`
        : `${what(item)} — not accepted`,
  made: 'Made',
  sentAt: 'Sent',
  tries: (n: number) => `${countOf(n, 'attempt')} so far`,
  open: 'Open it',
  openForm: 'Open the form',
  discard: 'Discard',
  discardLabel: (item: OutboxItem) => `Discard: ${what(item)}`,
  sendNow: 'Send now',
  sending: 'Sending…',
  offline: 'This device is offline: they are sent when it is back online.',
  signedOut: 'Sign in again to send them.',
  /** What a form says when its write was kept. */
  kept: 'Saved on this device — will be sent when you’re back online.',
  /** Names of fields whose last word says too little ("Temperature c"). */
  fields: {
    temperatureC: 'Temperature',
    humidityPercent: 'Relative humidity',
    massKg: 'Mass',
    eventTime: 'When',
    recordedAt: 'When measured',
  } as Readonly<Record<string, string>>,
  keptLink: 'See what is waiting',
} as const;
