CREATE TABLE "plants"."import_keys" (
	"owner_id" text NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"record_id" text NOT NULL,
	"import_id" text NOT NULL,
	CONSTRAINT "import_keys_owner_id_kind_key_pk" PRIMARY KEY("owner_id","kind","key")
);
--> statement-breakpoint
CREATE TABLE "plants"."import_problems" (
	"import_id" text NOT NULL,
	"seq" integer NOT NULL,
	"line" integer NOT NULL,
	"column" text,
	"field" text,
	"reason" text NOT NULL,
	"message" text NOT NULL,
	CONSTRAINT "import_problems_import_id_seq_pk" PRIMARY KEY("import_id","seq")
);
--> statement-breakpoint
CREATE TABLE "plants"."imports" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"created_by" text NOT NULL,
	"kind" text NOT NULL,
	"dry_run" integer NOT NULL,
	"state" text NOT NULL,
	"filename" text NOT NULL,
	"upload_key" text NOT NULL,
	"key_column" text NOT NULL,
	"mapping" jsonb NOT NULL,
	"total_bytes" integer NOT NULL,
	"bytes_read" integer DEFAULT 0 NOT NULL,
	"rows_read" integer DEFAULT 0 NOT NULL,
	"created" integer DEFAULT 0 NOT NULL,
	"unchanged" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"problems_kept" integer DEFAULT 0 NOT NULL,
	"problems_truncated" integer DEFAULT 0 NOT NULL,
	"owner_name" text,
	"actor" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"claimed_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "import_keys_record_idx" ON "plants"."import_keys" USING btree ("record_id");--> statement-breakpoint
CREATE INDEX "import_problems_line_idx" ON "plants"."import_problems" USING btree ("import_id","line","seq");--> statement-breakpoint
CREATE INDEX "imports_state_idx" ON "plants"."imports" USING btree ("state","created_at");