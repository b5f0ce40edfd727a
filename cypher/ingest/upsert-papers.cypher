// Creates or completes papers (a stub that is ingested becomes a full paper) and adds the collection.
UNWIND $papers AS row
MERGE (p:Paper {id: row.id})
SET p += row.props,
    p.stub = false,
    p.collections = CASE WHEN $collection IN coalesce(p.collections, []) THEN p.collections
                         ELSE coalesce(p.collections, []) + $collection END
RETURN count(p) AS papers
