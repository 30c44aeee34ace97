-- Whether a task's template is the operator's (shared): its lottie layers then name shared motions only, never a
-- vendor's of the same name (docs/templates.md, "Motions"). Null for a task created before: as a vendor's own.
ALTER TABLE batch_task ADD COLUMN template_shared boolean;
