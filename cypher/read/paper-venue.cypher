MATCH (:Paper {id: $id})-[:PUBLISHED_IN]->(v:Venue)
RETURN v {.*} AS venue
LIMIT 1
