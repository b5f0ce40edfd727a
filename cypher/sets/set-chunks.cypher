// Every chunk of the given sets with its embedding and its document's title: what a set search ranks in memory.
UNWIND $setIds AS setId
MATCH (:DocumentSet {id: setId})-[:HOLDS]->(d:SetDocument)-[:HAS_SET_CHUNK]->(c:SetChunk)
RETURN c.id AS id, d.id AS documentId, c.text AS text, c.start AS start, c.end AS end, c.ordinal AS ordinal,
       c.section AS section, c.sectionKind AS sectionKind, c.pageStart AS pageStart, c.pageEnd AS pageEnd,
       c.embedding AS embedding
ORDER BY documentId, c.ordinal
