-- Labs a workshop keeps ready in the warm pool for its first lesson while it is open (0: none).
ALTER TABLE workshop_event ADD COLUMN pooled_labs INTEGER DEFAULT 0 NOT NULL;
