-- Warm pool: a pooled lab runs with no owner until a learner claims it, with one atomic
-- UPDATE ... SET owner = ? WHERE id = ? AND owner IS NULL, so two servers can never hand out the same lab.
ALTER TABLE lab ALTER COLUMN owner DROP NOT NULL;
