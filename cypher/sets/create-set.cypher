// A private document set of one owner (an API key, or "anonymous" on a loopback server), refused when the owner
// already holds $maxSets live sets. Expired sets do not count (the sweeper removes them).
OPTIONAL MATCH (live:DocumentSet {owner: $owner})
WHERE live.expiresAt > $now
WITH count(live) AS held
WHERE held < $maxSets
CREATE (s:DocumentSet {id: $id, owner: $owner, createdAt: $now, expiresAt: $expiresAt})
RETURN s.id AS id
