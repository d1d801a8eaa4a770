CREATE TABLE "plants"."seed_lot_loans" (
	"id" text PRIMARY KEY NOT NULL,
	"seed_lot_id" text NOT NULL,
	"lender_id" text NOT NULL,
	"lender_name" text NOT NULL,
	"borrower_id" text NOT NULL,
	"borrower_name" text NOT NULL,
	"amount" double precision NOT NULL,
	"unit" text NOT NULL,
	"due_season" text NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"notes" text,
	"lent_at" timestamp with time zone NOT NULL,
	"lent_by" text NOT NULL,
	"lend_event_id" text,
	"returned_at" timestamp with time zone,
	"returned_by" text,
	"return_lot_id" text,
	"return_event_id" text
);
--> statement-breakpoint
CREATE INDEX "seed_lot_loans_lender_idx" ON "plants"."seed_lot_loans" USING btree ("lender_id","id");--> statement-breakpoint
CREATE INDEX "seed_lot_loans_borrower_idx" ON "plants"."seed_lot_loans" USING btree ("borrower_id","id");--> statement-breakpoint
CREATE INDEX "seed_lot_loans_lot_idx" ON "plants"."seed_lot_loans" USING btree ("seed_lot_id");