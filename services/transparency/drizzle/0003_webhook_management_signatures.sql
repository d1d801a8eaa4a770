CREATE TABLE "transparency"."signing_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"public_key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"label" text,
	"created_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "transparency"."signatures" (
	"id" text PRIMARY KEY NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" text NOT NULL,
	"key_id" text NOT NULL,
	"signer_id" text NOT NULL,
	"signature" text NOT NULL,
	"statement" text NOT NULL,
	"statement_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "transparency"."webhooks" ADD COLUMN "disabled_reason" text;--> statement-breakpoint
ALTER TABLE "transparency"."webhooks" ADD COLUMN "failing_since" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "signing_keys_owner_idx" ON "transparency"."signing_keys" USING btree ("owner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "signing_keys_owner_key_idx" ON "transparency"."signing_keys" USING btree ("owner_id","fingerprint");--> statement-breakpoint
CREATE UNIQUE INDEX "signatures_subject_key_idx" ON "transparency"."signatures" USING btree ("subject_type","subject_id","key_id");