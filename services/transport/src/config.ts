import { Gs1CompanyPrefixSetting, PublicUrlSetting, withBase } from '@rootline/host';
import { Type } from '@sinclair/typebox';

/** The settings of transport: the shared base settings and its own. */
export const TransportConfig = withBase({
  TRANSPORT_TRACKER_INTERVAL_SECONDS: Type.Number({
    minimum: 1,
    maximum: 86_400,
    default: 3600,
    description: 'Time between two cycles of the transport tracker while it runs',
  }),
  TRANSPORT_TRACKER_POLL_MS: Type.Integer({
    minimum: 50,
    maximum: 60_000,
    default: 5000,
    description: 'How often each replica checks whether a tracker cycle is due',
  }),
  EPCIS_SCHEDULE_POLL_MS: Type.Integer({
    minimum: 100,
    maximum: 60_000,
    default: 1000,
    description:
      'How often each replica looks for scheduled EPCIS query subscriptions that are due (ADR 320): a delivery ' +
      'goes out at most this long after its due time, and a schedule finer than this is delivered at this pace',
  }),
  /** QR codes point at <PUBLIC_URL>/api/transport/trace/<id>; unset, at the address the request came through. */
  PUBLIC_URL: PublicUrlSetting,
  /** Plants' GS1 Digital Link URIs in QR codes and EPCIS events carry GIAIs with this prefix (ADR 275). */
  GS1_COMPANY_PREFIX: Gs1CompanyPrefixSetting,
  EPCIS_SGLNS: Type.String({
    default: '',
    maxLength: 100_000,
    description:
      'SGLNs of places, as `<sgln>=<lat>,<lon>` entries separated by spaces (e.g. ' +
      '`urn:epc:id:sgln:9520000.00001.0=52.3676,4.9041`): EPCIS answers name an event at exactly that point by the ' +
      'SGLN instead of its geo URI, and capture and EQ_bizLocation take the SGLN for the point (ADR 314)',
  }),
});
