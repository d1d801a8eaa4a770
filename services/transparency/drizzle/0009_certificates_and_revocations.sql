CREATE TABLE "transparency"."certificates" (
	"id" text PRIMARY KEY NOT NULL,
	"plant_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_by" text,
	"reason" text,
	"audit_index" bigint
);
--> statement-breakpoint
CREATE UNIQUE INDEX "certificates_current_idx" ON "transparency"."certificates" USING btree ("plant_id") WHERE "transparency"."certificates"."revoked_at" is null;--> statement-breakpoint
CREATE INDEX "certificates_revoked_idx" ON "transparency"."certificates" USING btree ("revoked_at") WHERE "transparency"."certificates"."revoked_at" is not null;