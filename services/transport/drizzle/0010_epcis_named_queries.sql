CREATE TABLE "transport"."epcis_named_queries" (
	"account_id" text NOT NULL,
	"name" text NOT NULL,
	"query" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "epcis_named_queries_account_id_name_pk" PRIMARY KEY("account_id","name")
);
