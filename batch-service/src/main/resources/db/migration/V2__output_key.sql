-- The output file is kept as a key of the vendor's namespace; answers show it as s3://<bucket>/<key> with a presigned
-- file-url beside it (docs/batch.md).
ALTER TABLE batch_task RENAME COLUMN output_path TO output_key;
