// Sets whose time is up, oldest first: the sweeper deletes them.
MATCH (s:DocumentSet)
WHERE s.expiresAt <= $now
RETURN s.id AS id
ORDER BY s.expiresAt
LIMIT $limit
