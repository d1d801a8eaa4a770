-- Offers are private to their parties and matches do not name their household: the history and pending webhook
-- deliveries keep only the public form of these events (the audit log keeps the whole).
UPDATE "transparency"."public_events" SET "data" = "data" - 'buyerId' - 'quantity' - 'price' - 'currency' - 'counterPrice'
  WHERE "kind" IN ('offer.made', 'offer.countered', 'offer.accepted', 'offer.rejected', 'offer.withdrawn');--> statement-breakpoint
UPDATE "transparency"."public_events" SET "data" = "data" - 'consumerId' - 'distanceKm' WHERE "kind" = 'demand.match';--> statement-breakpoint
UPDATE "transparency"."webhook_deliveries" SET "data" = "data" - 'buyerId' - 'quantity' - 'price' - 'currency' - 'counterPrice'
  WHERE "kind" IN ('offer.made', 'offer.countered', 'offer.accepted', 'offer.rejected', 'offer.withdrawn');--> statement-breakpoint
UPDATE "transparency"."webhook_deliveries" SET "data" = "data" - 'consumerId' - 'distanceKm' WHERE "kind" = 'demand.match';
