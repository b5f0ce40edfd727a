UNWIND $papers AS paperId
MATCH (:Paper {id: paperId})-[r:PUBLISHED_IN]->(:Venue)
DELETE r
WITH count(*) AS removed
UNWIND $rows AS row
MATCH (p:Paper {id: row.paperId})
MERGE (v:Venue {id: row.venueId})
SET v.name = row.name, v.issnL = row.issnL, v.issn = row.issn, v.type = row.type, v.publisher = row.publisher
MERGE (p)-[:PUBLISHED_IN]->(v)
RETURN count(*) AS venues
