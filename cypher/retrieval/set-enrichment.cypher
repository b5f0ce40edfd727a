UNWIND $rows AS row
MATCH (p:Paper {id: row.id})
SET p.enrichment = row.terms
RETURN count(p) AS updated
