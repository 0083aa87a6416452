-- Passages of a knowledge document that the detector takes for prompt injection (docs/security.md,
-- "Knowledge and tool output"): stored, and shown to the owner, but never handed to a model.
-- `{ "severity": …, "families": […] }` for such a chunk, null for a clean one (every existing row).
alter table knowledge_chunks add column injection jsonb;
