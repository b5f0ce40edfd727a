// Authorship rows of papers being (re)written: old AUTHORED edges of those papers are replaced.
UNWIND $papers AS paperId
MATCH (:Author)-[r:AUTHORED]->(:Paper {id: paperId})
DELETE r
WITH count(*) AS removed
UNWIND $rows AS row
MATCH (p:Paper {id: row.paperId})
MERGE (a:Author {id: row.authorId})
SET a.name = row.name,
    a.orcid = coalesce(row.orcid, a.orcid),
    a.anonymous = row.anonymous
MERGE (a)-[r:AUTHORED]->(p)
SET r.position = row.position, r.order = row.order, r.corresponding = row.corresponding,
    // The institutions of this authorship (none: no property, as a bulk import leaves it).
    r.institutions = CASE WHEN size(row.institutions) = 0 THEN null ELSE [inst IN row.institutions | inst.id] END
WITH a, row
UNWIND row.institutions AS inst
MERGE (i:Institution {id: inst.id})
SET i.name = inst.name, i.ror = inst.ror, i.countryCode = inst.countryCode, i.type = inst.type
MERGE (a)-[:AFFILIATED_WITH]->(i)
RETURN count(*) AS affiliations
