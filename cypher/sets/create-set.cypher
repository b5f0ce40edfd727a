// A private document set of one owner (an API key, or "anonymous" on a loopback server), refused when the owner
// already holds $maxSets live sets. Expired sets do not count (the sweeper removes them). The owner's lock node is
// written first: that takes its write lock until commit, so two concurrent creations count one after the other and
// the cap holds (a count alone reads what is committed, and both would see room for one more).
MERGE (o:SetOwner {owner: $owner})
SET o.lockedAt = $now
WITH o
OPTIONAL MATCH (live:DocumentSet {owner: $owner})
WHERE live.expiresAt > $now
WITH count(live) AS held
WHERE held < $maxSets
CREATE (s:DocumentSet {id: $id, owner: $owner, createdAt: $now, expiresAt: $expiresAt})
RETURN s.id AS id
