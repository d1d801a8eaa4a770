CREATE TABLE "transport"."custody" (
	"subject" text NOT NULL,
	"subject_kind" text NOT NULL,
	"user_id" text NOT NULL,
	"via" text NOT NULL,
	"event_id" text NOT NULL,
	"since" timestamp with time zone NOT NULL,
	CONSTRAINT "custody_subject_user_id_event_id_pk" PRIMARY KEY("subject","user_id","event_id")
);
--> statement-breakpoint
CREATE INDEX "custody_event_idx" ON "transport"."custody" USING btree ("event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "custody_first_event_idx" ON "transport"."custody" USING btree ("subject") WHERE via = 'first-event';--> statement-breakpoint
-- Seed lots recorded before custody: the handler of each lot's first event is its custodian.
INSERT INTO "transport"."custody" ("subject", "subject_kind", "user_id", "via", "event_id", "since")
SELECT DISTINCT ON ("seed_lot_id") "seed_lot_id", 'seed-lot', "handler_id", 'first-event', "id", "recorded_at"
FROM "transport"."events" WHERE "seed_lot_id" IS NOT NULL
ORDER BY "seed_lot_id", "recorded_at", "id";
