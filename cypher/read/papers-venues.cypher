// The venue of each of several papers.
UNWIND $ids AS id
MATCH (:Paper {id: id})-[:PUBLISHED_IN]->(v:Venue)
WITH id, collect(v)[0] AS v
RETURN id AS paperId, v {.*} AS venue
