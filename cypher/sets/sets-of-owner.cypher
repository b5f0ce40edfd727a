// The live document sets of one owner, newest first.
MATCH (s:DocumentSet {owner: $owner})
WHERE s.expiresAt > $now
RETURN s.id AS id
ORDER BY s.createdAt DESC, s.id
