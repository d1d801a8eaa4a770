CREATE TABLE "transparency"."signing_key_challenges" (
	"challenge" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "signing_key_challenges_expiry_idx" ON "transparency"."signing_key_challenges" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "signing_keys_fingerprint_idx" ON "transparency"."signing_keys" USING btree ("fingerprint");